package org.divvy.perf.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A CSV file the perf subcommands write (RFC 4180 quoting, a header line), read back as records keyed by the header's
 * column names: the single-node medians and samples, and the {@code section,case,metric,value,unit,note} files of
 * {@code uts} and {@code lanwan}.
 */
final class CsvFile {
    private final Path path;
    private final List<Map<String, String>> records;

    private CsvFile(final Path path, final List<Map<String, String>> records) {
        this.path = path;
        this.records = records;
    }

    static CsvFile read(final Path path) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        if (lines.isEmpty()) {
            throw new IllegalStateException(path + " is empty");
        }
        final List<String> header = fields(lines.get(0));
        final List<Map<String, String>> records = new ArrayList<>();
        for (final String line : lines.subList(1, lines.size())) {
            if (line.isEmpty()) {
                continue;
            }
            final List<String> fields = fields(line);
            final Map<String, String> record = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                record.put(header.get(i), i < fields.size() ? fields.get(i) : "");
            }
            records.add(record);
        }
        return new CsvFile(path, records);
    }

    List<Map<String, String>> records(final Predicate<Map<String, String>> filter) {
        return records.stream().filter(filter).toList();
    }

    /** The one record whose {@code column} is {@code value}; fails naming the file if there is none. */
    Map<String, String> only(final String column, final String value) {
        return records.stream().filter(r -> value.equals(r.get(column))).findFirst()
            .orElseThrow(() -> new IllegalStateException(path + " has no row with " + column + "=" + value));
    }

    /** In a {@code section,case,metric,value,...} file: the value of that row; fails naming the file if missing. */
    double value(final String section, final String caseName, final String metric) {
        return records.stream()
            .filter(r -> section.equals(r.get("section")) && caseName.equals(r.get("case")) && metric.equals(r.get("metric")))
            .mapToDouble(r -> Double.parseDouble(r.get("value")))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException(path + " has no row " + section + "," + caseName + "," + metric));
    }

    /** The fields of one line: commas split, double quotes group and {@code ""} is a quote inside them. */
    static List<String> fields(final String line) {
        final List<String> fields = new ArrayList<>();
        final StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
