package org.divvy.perf.lanwan;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** The efficiency section's CSV rows (every run, then each case's summary) and its printed table and rows. */
final class EfficiencyReport {
    private EfficiencyReport() {
    }

    static String caseName(final EfficiencySummary s, final int sites, final int perSite) {
        return String.format(Locale.ROOT, "%s-%dx%d-delay%dms-leaf%dus", s.policy(), sites, perSite, s.oneWayDelayMs(), s.leafUs());
    }

    static String category(final EfficiencySummary s) {
        return s.oneWayDelayMs() + " ms" + (s.isControl() ? " (control)" : "") + " / " + s.leafUs() / 1000.0 + " ms leaf";
    }

    static void addTo(final LanWanCsv csv, final List<EfficiencyResult> results, final List<EfficiencySummary> summaries,
        final int sites, final int perSite) {
        for (final EfficiencySummary s : summaries) {
            final String caseName = caseName(s, sites, perSite);
            for (final EfficiencyResult r : s.runs()) {
                final String run = caseName + "-run" + r.round();
                final String note = "SIMULATED fib(" + r.fibN() + ") leaves=" + r.leaves();
                csv.add("efficiency", run, "answer_correct", r.answerCorrect() ? 1 : 0, "bool", note);
                csv.add("efficiency", run, "elapsed", r.elapsedMs(), "ms", note);
                csv.add("efficiency", run, "ideal", r.idealMs(), "ms", note);
                csv.add("efficiency", run, "efficiency", r.efficiency(), "ratio", note);
                csv.add("efficiency", run, "efficiency_parked", r.parkedEfficiency(), "ratio", note + " ideal from the time leaves actually parked");
                csv.add("efficiency", run, "parked_leaf", r.parkedLeafUs(), "us", note + " mean measured park of one leaf");
                csv.add("efficiency", run, "loss_overshoot", r.overshootLoss(), "fraction", note + " of node-time");
                csv.add("efficiency", run, "loss_ramp", r.rampLoss(), "fraction", note + " of node-time; before each node's first leaf");
                csv.add("efficiency", run, "loss_tail", r.tailLoss(), "fraction", note + " of node-time; after each node's last leaf");
                csv.add("efficiency", run, "loss_gaps", r.gapLoss(), "fraction", note + " of node-time; between leaves");
                csv.add("efficiency", run, "last_first_leaf", r.lastFirstLeafMs(), "ms", note + " after the start");
                csv.add("efficiency", run, "first_last_leaf", r.firstLastLeafMs(), "ms", note + " before the end");
                csv.add("efficiency", run, "site_steal_requests", r.siteStealAttempts(), "count", note);
                csv.add("efficiency", run, "wide_steal_requests", r.wideStealAttempts(), "count", note);
                csv.add("efficiency", run, "wide_steals", r.wideSteals(), "count", note);
                csv.add("efficiency", run, "relayed_datagrams", r.relayedDatagrams(), "count", note);
                csv.add("efficiency", run, "wide_request_fraction", r.wideAreaFraction(), "ratio", note);
            }
            final String note = "SIMULATED " + s.runs().size() + " runs";
            csv.add("efficiency", caseName, "answer_correct", s.allCorrect() ? 1 : 0, "bool", note);
            csv.add("efficiency", caseName, "runs", s.runs().size(), "count", note);
            csv.add("efficiency", caseName, "efficiency_min", s.min(), "ratio", note);
            csv.add("efficiency", caseName, "efficiency_median", s.median(), "ratio", note);
            csv.add("efficiency", caseName, "efficiency_max", s.max(), "ratio", note);
            csv.add("efficiency", caseName, "relative_to_control_median", s.relativeMedian(), "ratio", note + " over the 0 ms control's median");
            csv.add("efficiency", caseName, "relative_to_control_min", s.relativeMin(), "ratio", note);
            csv.add("efficiency", caseName, "relative_to_control_max", s.relativeMax(), "ratio", note);
            csv.add("efficiency", caseName, "efficiency_parked_median", s.medianOf(EfficiencyResult::parkedEfficiency), "ratio", note);
            csv.add("efficiency", caseName, "loss_overshoot_median", s.medianOf(EfficiencyResult::overshootLoss), "fraction", note);
            csv.add("efficiency", caseName, "loss_ramp_median", s.medianOf(EfficiencyResult::rampLoss), "fraction", note);
            csv.add("efficiency", caseName, "loss_tail_median", s.medianOf(EfficiencyResult::tailLoss), "fraction", note);
            csv.add("efficiency", caseName, "loss_gaps_median", s.medianOf(EfficiencyResult::gapLoss), "fraction", note);
            csv.add("efficiency", caseName, "elapsed_median", s.medianOf(EfficiencyResult::elapsedMs), "ms", note);
            csv.add("efficiency", caseName, "wide_request_fraction_median", s.medianOf(EfficiencyResult::wideAreaFraction), "ratio", note);
        }
    }

    /** The summary table, then one row per case with the command that reproduces it. */
    static void print(final PrintStream out, final List<EfficiencySummary> summaries, final int sites, final int perSite,
        final String command) {
        out.printf("%nSIMULATED efficiency, %d sites x %d nodes, 1 worker each (absolute: ideal / measured; relative: over the " +
            "same policy's 0 ms control median; losses: medians, fractions of node-time)%n", sites, perSite);
        out.printf("%-6s %6s %6s %4s  %-23s %-23s %8s %9s %6s %6s %6s%n", "policy", "delay", "leaf", "runs", "absolute min/med/max",
            "relative min/med/max", "parked", "overshoot", "ramp", "tail", "gaps");
        for (final EfficiencySummary s : summaries) {
            out.printf(Locale.ROOT, "%-6s %4d ms %4d us %4d  %.3f / %.3f / %.3f   %.3f / %.3f / %.3f   %8.3f %9.3f %6.3f %6.3f %6.3f%n",
                s.policy(), s.oneWayDelayMs(), s.leafUs(), s.runs().size(), s.min(), s.median(), s.max(), s.relativeMin(),
                s.relativeMedian(), s.relativeMax(), s.medianOf(EfficiencyResult::parkedEfficiency), s.medianOf(EfficiencyResult::overshootLoss),
                s.medianOf(EfficiencyResult::rampLoss), s.medianOf(EfficiencyResult::tailLoss), s.medianOf(EfficiencyResult::gapLoss));
        }
        for (final EfficiencySummary s : summaries) {
            out.printf(Locale.ROOT, "ROW %s efficiency, %d sites x %d nodes, SIMULATED, %d ms one-way%s, %s ms leaves, %.1f s runs (median): " +
                    "absolute %.3f (min %.3f, max %.3f, %d runs), relative to the 0 ms control %.3f (%.3f-%.3f) | %s%n",
                s.policy(), sites, perSite, s.oneWayDelayMs(), s.isControl() ? " (control)" : "", s.leafUs() / 1000.0,
                s.medianOf(EfficiencyResult::elapsedMs) / 1000, s.median(), s.min(), s.max(), s.runs().size(), s.relativeMedian(),
                s.relativeMin(), s.relativeMax(), command);
        }
    }
}
