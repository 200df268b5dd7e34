package org.divvy.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** What the perf subcommands share around a measurement: writing their CSV lines, and the machine's load average. */
public final class PerfFiles {
    private PerfFiles() {
    }

    /** Writes {@code lines} to {@code path} (UTF-8), creating its directory; an I/O failure ends the run. */
    public static void writeLines(final Path path, final List<String> lines) {
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            Files.write(path, lines, StandardCharsets.UTF_8);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot write " + path, ex);
        }
    }

    /** The system load average over the last minute, two decimals (printed beside every measurement). */
    public static String loadAverage() {
        return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
