package org.divvy.perf.chart;

import java.awt.Color;

/**
 * One series of a grouped bar chart: a value per category, all drawn in one colour.
 *
 * @param name   shown in the legend
 * @param color  fill colour of its bars
 * @param values one value per category, in category order
 */
public record BarSeries(String name, Color color, double[] values) {
    public BarSeries {
        values = values.clone();
    }

    @Override
    public double[] values() {
        return values.clone();
    }
}
