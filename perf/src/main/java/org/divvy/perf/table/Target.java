package org.divvy.perf.table;

import java.util.Locale;

/**
 * A row's target: a bound the value must stay at or below ({@code atMost}) or reach ({@code !atMost}).
 *
 * @param bound  the bound, in the row's unit
 * @param atMost true for "<= bound" (a time ratio, a memory size), false for ">= bound" (a rate, a speedup)
 */
public record Target(double bound, boolean atMost) {
    /** No target: a row shown for context (the 0 ms control, a figure relative to it). */
    public static final Target NONE = new Target(Double.NaN, false);

    public static Target atMost(final double bound) {
        return new Target(bound, true);
    }

    public static Target atLeast(final double bound) {
        return new Target(bound, false);
    }

    public boolean exists() {
        return !Double.isNaN(bound);
    }

    public boolean isMetBy(final double value) {
        return exists() && (atMost ? value <= bound : value >= bound);
    }

    /**
     * How far {@code value} is toward the target, 1 = exactly on it, above 1 = met, for both directions (so one chart
     * shows every row): value / bound for a lower bound, bound / value for an upper one. NaN without a target.
     */
    public double progress(final double value) {
        if (!exists()) {
            return Double.NaN;
        }
        return atMost ? bound / value : value / bound;
    }

    /** {@code "<= 1.0"}, {@code ">= 25"}, or {@code "-"} without a target. */
    public String text() {
        if (!exists()) {
            return "-";
        }
        final String number = bound == Math.rint(bound) && Math.abs(bound) >= 10
            ? String.format(Locale.ROOT, "%.0f", bound) : String.format(Locale.ROOT, "%.2f", bound).replaceFirst("0$", "");
        return (atMost ? "<= " : ">= ") + number;
    }
}
