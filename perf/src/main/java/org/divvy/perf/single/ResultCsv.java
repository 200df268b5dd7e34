package org.divvy.perf.single;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes benchmark results as CSV (RFC 4180 quoting): one row per benchmark, and one row per sample. */
public final class ResultCsv {
    /** The header of the medians file; one row per benchmark follows. */
    public static final String MEDIANS_HEADER = "benchmark,description,workers,warmup,rounds,work_units,work_unit,answer," +
        "divvy_median_ns,fjp_median_ns,sequential_median_ns," +
        "divvy_ns_per_unit,fjp_ns_per_unit,sequential_ns_per_unit," +
        "divvy_over_fjp,sequential_over_divvy,sequential_over_fjp";
    /** The header of the samples file: every timed run, in the order it ran within its round. */
    public static final String SAMPLES_HEADER = "benchmark,contender,round,elapsed_ns";

    private ResultCsv() {
    }

    /** Writes one row per result to {@code path}, creating parent directories. */
    public static void writeMedians(final Path path, final SingleNodeOptions options, final List<BenchmarkResult> results) {
        final List<String> lines = new ArrayList<>();
        lines.add(MEDIANS_HEADER);
        for (final BenchmarkResult r : results) {
            lines.add(String.join(",",
                quote(r.id()),
                quote(r.description()),
                Integer.toString(options.workers()),
                Integer.toString(options.warmup()),
                Integer.toString(options.rounds()),
                Long.toString(r.workUnits()),
                quote(r.workUnitName()),
                quote(r.answer()),
                number(r.medianNs(Contender.DIVVY)),
                number(r.medianNs(Contender.FORK_JOIN)),
                number(r.medianNs(Contender.SEQUENTIAL)),
                number(r.medianNsPerUnit(Contender.DIVVY)),
                number(r.medianNsPerUnit(Contender.FORK_JOIN)),
                number(r.medianNsPerUnit(Contender.SEQUENTIAL)),
                number(r.divvyOverForkJoin()),
                number(r.sequentialOverDivvy()),
                number(r.sequentialOverForkJoin())));
        }
        write(path, lines);
    }

    /** Writes every timed sample of every result to {@code path}. */
    public static void writeSamples(final Path path, final List<BenchmarkResult> results) {
        final List<String> lines = new ArrayList<>();
        lines.add(SAMPLES_HEADER);
        for (final BenchmarkResult r : results) {
            for (final Contender contender : Contender.values()) {
                final long[] samples = r.samplesNs(contender);
                for (int round = 0; round < samples.length; round++) {
                    lines.add(quote(r.id()) + ',' + contender.label() + ',' + (round + 1) + ',' + samples[round]);
                }
            }
        }
        write(path, lines);
    }

    static String quote(final String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    private static String number(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static void write(final Path path, final List<String> lines) {
        try {
            final Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(path, lines, StandardCharsets.UTF_8);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot write " + path, ex);
        }
    }
}
