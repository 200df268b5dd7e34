package org.divvy.perf.lanwan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.divvy.StealPolicy;

/**
 * The repeated runs of one efficiency case (policy, delay, leaf time) reduced to what the README reports:
 * min / median / max of the absolute efficiency, and the efficiency relative to the control (the same
 * policy and leaf time at 0 ms delay, its median): what the wide-area delay costs beyond the harness's own loss.
 */
record EfficiencySummary(StealPolicy policy, long oneWayDelayMs, int leafUs, List<EfficiencyResult> runs, double controlMedian) {

    /** One summary per case, in the order the cases first appear; the control's median from the 0 ms runs. */
    static List<EfficiencySummary> of(final List<EfficiencyResult> results) {
        final Map<String, List<EfficiencyResult>> byCase = new LinkedHashMap<>();
        for (final EfficiencyResult r : results) {
            byCase.computeIfAbsent(r.policy() + "/" + r.oneWayDelayMs() + "/" + r.leafUs(), k -> new ArrayList<>()).add(r);
        }
        final List<EfficiencySummary> summaries = new ArrayList<>();
        for (final List<EfficiencyResult> runs : byCase.values()) {
            final EfficiencyResult first = runs.get(0);
            final List<EfficiencyResult> control = byCase.get(first.policy() + "/" + EfficiencyBenchmark.CONTROL_DELAY_MS + "/" + first.leafUs());
            final double controlMedian = control == null ? Double.NaN : median(control, EfficiencyResult::efficiency);
            summaries.add(new EfficiencySummary(first.policy(), first.oneWayDelayMs(), first.leafUs(), List.copyOf(runs), controlMedian));
        }
        return summaries;
    }

    boolean isControl() {
        return oneWayDelayMs == EfficiencyBenchmark.CONTROL_DELAY_MS;
    }

    double min() {
        return runs.stream().mapToDouble(EfficiencyResult::efficiency).min().orElse(Double.NaN);
    }

    double median() {
        return median(runs, EfficiencyResult::efficiency);
    }

    double max() {
        return runs.stream().mapToDouble(EfficiencyResult::efficiency).max().orElse(Double.NaN);
    }

    /** Median efficiency over the control's median efficiency. */
    double relativeMedian() {
        return median() / controlMedian;
    }

    double relativeMin() {
        return min() / controlMedian;
    }

    double relativeMax() {
        return max() / controlMedian;
    }

    boolean allCorrect() {
        return runs.stream().allMatch(EfficiencyResult::answerCorrect);
    }

    /** The median of {@code metric} over this case's runs. */
    double medianOf(final ToDoubleFunction<EfficiencyResult> metric) {
        return median(runs, metric);
    }

    static double median(final List<EfficiencyResult> runs, final ToDoubleFunction<EfficiencyResult> metric) {
        final double[] v = runs.stream().mapToDouble(metric).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    @Override
    public String toString() {
        return policy + " " + oneWayDelayMs + " ms " + leafUs + " us " + Arrays.toString(runs.stream().mapToDouble(EfficiencyResult::efficiency).toArray());
    }
}
