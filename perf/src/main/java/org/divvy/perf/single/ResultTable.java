package org.divvy.perf.single;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints the medians and ratios of a session as a fixed-width table. */
public final class ResultTable {
    private static final String ROW = "%-10s %12s %12s %12s %11s %11s %11s %9s %9s %9s%n";

    private ResultTable() {
    }

    public static void print(final PrintStream out, final SingleNodeOptions options, final List<BenchmarkResult> results) {
        out.printf(Locale.ROOT, "%nMedians of %d rounds after %d warm-up runs, %d workers (Divvy) / parallelism %d (FJP)%n",
            options.rounds(), options.warmup(), options.workers(), options.workers());
        out.printf(Locale.ROOT, ROW, "benchmark", "Divvy ms", "FJP ms", "Seq ms",
            "Divvy ns/u", "FJP ns/u", "Seq ns/u", "Divvy/FJP", "Seq/Divvy", "Seq/FJP");
        for (final BenchmarkResult r : results) {
            out.printf(Locale.ROOT, ROW, r.id(),
                ms(r.medianNs(Contender.DIVVY)), ms(r.medianNs(Contender.FORK_JOIN)), ms(r.medianNs(Contender.SEQUENTIAL)),
                perUnit(r.medianNsPerUnit(Contender.DIVVY)), perUnit(r.medianNsPerUnit(Contender.FORK_JOIN)),
                perUnit(r.medianNsPerUnit(Contender.SEQUENTIAL)),
                ratio(r.divvyOverForkJoin()), ratio(r.sequentialOverDivvy()), ratio(r.sequentialOverForkJoin()));
        }
        out.println("Divvy/FJP < 1: Divvy faster than ForkJoinPool. Seq/Divvy: Divvy's speedup over sequential Java.");
        for (final BenchmarkResult r : results) {
            out.printf(Locale.ROOT, "  %-10s %s; answer %s%s%n", r.id(), r.description(), r.answer(),
                r.workUnits() == 0 ? "" : "; u = " + r.workUnitName() + " (" + r.workUnits() + " per run)");
        }
    }

    private static String ms(final double ns) {
        return String.format(Locale.ROOT, "%.1f", ns / 1e6);
    }

    private static String perUnit(final double ns) {
        return Double.isNaN(ns) ? "-" : String.format(Locale.ROOT, "%.2f", ns);
    }

    private static String ratio(final double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
