package org.divvy.perf.lanwan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.divvy.perf.PerfFiles;

/**
 * The harness's one CSV: {@code section,case,metric,value,unit,note}, one measured number per row.
 * Sections: {@code steal-rtt}, {@code efficiency} (note SIMULATED), {@code speedup}.
 */
final class LanWanCsv {
    static final String HEADER = "section,case,metric,value,unit,note";
    private final List<String> rows = new ArrayList<>();

    void add(final String section, final String caseName, final String metric, final double value, final String unit,
        final String note) {
        rows.add(String.join(",", section, caseName, metric, String.format(Locale.ROOT, "%.4f", value), unit, note));
    }

    List<String> rows() {
        return List.copyOf(rows);
    }

    void write(final Path path) {
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        lines.addAll(rows);
        PerfFiles.writeLines(path, lines);
    }
}
