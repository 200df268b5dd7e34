package org.divvy.perf.table;

import java.util.Locale;

/**
 * One printed line of the table.
 *
 * @param group   the {@code --rows} id of the measurement it came from
 * @param measure what is measured, as the table names it
 * @param value   the figure the target is stated for (a median, or the largest node's RSS)
 * @param low     the spread's low end (slowest round, smallest node...); NaN when there is no spread
 * @param high    the spread's high end; NaN when there is no spread
 * @param unit    the unit of {@code value}, {@code ""} for a ratio
 * @param target  the target for it, or {@link Target#NONE}
 * @param detail  what else the run printed about it (the times a ratio is made of, what the spread is)
 * @param command the command that reproduces this row alone
 */
public record TableRow(String group, String measure, double value, double low, double high, String unit, Target target,
    String detail, String command) {

    /** {@code met}, {@code NOT met}, or {@code -} without a target. */
    public String verdict() {
        if (!target.exists()) {
            return "-";
        }
        return target.isMetBy(value) ? "met" : "NOT met";
    }

    /** The value with its unit and spread: {@code "2.14 (1.95-2.40)"}. */
    public String valueText() {
        final StringBuilder text = new StringBuilder(number(value));
        if (!unit.isEmpty()) {
            text.append(' ').append(unit);
        }
        if (!Double.isNaN(low) && !Double.isNaN(high)) {
            text.append(" (").append(number(low)).append('-').append(number(high)).append(')');
        }
        return text.toString();
    }

    /** The row as printed at the end of the run: measure | value (spread) | target | verdict | detail | command. */
    public String line() {
        return String.join(" | ", measure, valueText(), "target " + target.text(), verdict(), detail, command);
    }

    /** Three significant decimals for ratios and efficiencies, one for larger figures. */
    static String number(final double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        return String.format(Locale.ROOT, Math.abs(value) >= 10 ? "%.1f" : Math.abs(value) >= 1 ? "%.2f" : "%.3f", value);
    }
}
