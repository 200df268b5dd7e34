package org.divvy.perf.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * A grouped bar chart: one group of bars per category (benchmark), one bar per series (ratio), each bar
 * labelled with its value, with a dashed reference line (1.0 = parity for ratios).
 */
public final class GroupedBarChart {
    private static final int WIDTH_PX = 1000;
    private static final int HEIGHT_PX = 560;
    private static final int LEFT_PX = 80;
    private static final int RIGHT_PX = 30;
    private static final int TOP_PX = 70;
    private static final int BOTTOM_PX = 80;
    private static final double HEADROOM = 1.15;

    private final String title;
    private final String subtitle;
    private final String yAxisLabel;
    private final List<String> categories;
    private final List<BarSeries> series;
    private final double referenceValue;

    /**
     * @param referenceValue where the dashed line is drawn (1.0 for ratios); NaN for none
     */
    public GroupedBarChart(
        final String title,
        final String subtitle,
        final String yAxisLabel,
        final List<String> categories,
        final List<BarSeries> series,
        final double referenceValue) {
        if (categories.isEmpty() || series.isEmpty()) {
            throw new IllegalArgumentException(
                "categories=" + categories.size() + " series=" + series.size() + ", both must be >= 1");
        }
        for (final BarSeries s : series) {
            if (s.values().length != categories.size()) {
                throw new IllegalArgumentException("series " + s.name() + " has " + s.values().length +
                    " values, must have one per category (" + categories.size() + ")");
            }
        }
        this.title = title;
        this.subtitle = subtitle;
        this.yAxisLabel = yAxisLabel;
        this.categories = List.copyOf(categories);
        this.series = List.copyOf(series);
        this.referenceValue = referenceValue;
    }

    /** Draws the chart. */
    public BufferedImage render() {
        final BufferedImage image = new BufferedImage(WIDTH_PX, HEIGHT_PX, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH_PX, HEIGHT_PX);
            draw(g);
        } finally {
            g.dispose();
        }
        return image;
    }

    /** Draws the chart and writes it as PNG to {@code path}, creating parent directories. */
    public void writePng(final Path path) {
        try {
            final Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            if (!ImageIO.write(render(), "png", path.toFile())) {
                throw new IllegalStateException("no PNG writer in this JDK");
            }
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot write " + path, ex);
        }
    }

    private void draw(final Graphics2D g) {
        final int plotLeft = LEFT_PX;
        final int plotRight = WIDTH_PX - RIGHT_PX;
        final int plotTop = TOP_PX;
        final int plotBottom = HEIGHT_PX - BOTTOM_PX;
        final double yMax = niceCeiling(maxValue() * HEADROOM);

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
        drawCentered(g, title, WIDTH_PX / 2, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        drawCentered(g, subtitle, WIDTH_PX / 2, 48);

        final double tick = yMax / 5;
        for (int i = 0; i <= 5; i++) {
            final double value = tick * i;
            final int y = yPixel(value, yMax, plotTop, plotBottom);
            g.setColor(new Color(225, 225, 225));
            g.drawLine(plotLeft, y, plotRight, y);
            g.setColor(Color.DARK_GRAY);
            final String label = String.format(Locale.ROOT, "%.2f", value);
            g.drawString(label, plotLeft - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(plotLeft, plotTop, plotLeft, plotBottom);
        g.drawLine(plotLeft, plotBottom, plotRight, plotBottom);
        final Graphics2D rotated = (Graphics2D)g.create();
        rotated.rotate(-Math.PI / 2);
        drawCentered(rotated, yAxisLabel, -(plotTop + plotBottom) / 2, 20);
        rotated.dispose();

        final int groupWidth = (plotRight - plotLeft) / categories.size();
        final int barWidth = Math.max(4, (int)(groupWidth * 0.7 / series.size()));
        for (int c = 0; c < categories.size(); c++) {
            final int groupLeft = plotLeft + c * groupWidth + (groupWidth - barWidth * series.size()) / 2;
            for (int s = 0; s < series.size(); s++) {
                final double value = series.get(s).values()[c];
                final int x = groupLeft + s * barWidth;
                if (Double.isNaN(value)) {
                    continue;
                }
                final int y = yPixel(value, yMax, plotTop, plotBottom);
                g.setColor(series.get(s).color());
                g.fillRect(x, y, barWidth - 2, plotBottom - y);
                g.setColor(Color.BLACK);
                drawCentered(g, String.format(Locale.ROOT, "%.2f", value), x + barWidth / 2, y - 4);
            }
            drawCentered(g, categories.get(c), plotLeft + c * groupWidth + groupWidth / 2, plotBottom + 18);
        }

        if (!Double.isNaN(referenceValue) && referenceValue <= yMax) {
            final int y = yPixel(referenceValue, yMax, plotTop, plotBottom);
            final Stroke saved = g.getStroke();
            g.setColor(Color.RED.darker());
            g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
            g.drawLine(plotLeft, y, plotRight, y);
            g.setStroke(saved);
            g.drawString(String.format(Locale.ROOT, "%.1f", referenceValue), plotRight - 24, y - 4);
        }

        int legendX = plotLeft;
        final int legendY = HEIGHT_PX - 30;
        for (final BarSeries s : series) {
            g.setColor(s.color());
            g.fillRect(legendX, legendY - 10, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(s.name(), legendX + 20, legendY + 2);
            legendX += 40 + g.getFontMetrics().stringWidth(s.name());
        }
    }

    private double maxValue() {
        double max = Double.isNaN(referenceValue) ? 0 : referenceValue;
        for (final BarSeries s : series) {
            for (final double v : s.values()) {
                if (!Double.isNaN(v)) {
                    max = Math.max(max, v);
                }
            }
        }
        return max > 0 ? max : 1;
    }

    /** The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least {@code value}. */
    static double niceCeiling(final double value) {
        final double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (final double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static int yPixel(final double value, final double yMax, final int plotTop, final int plotBottom) {
        return plotBottom - (int)Math.round(value / yMax * (plotBottom - plotTop));
    }

    private static void drawCentered(final Graphics2D g, final String text, final int centerX, final int baselineY) {
        final FontMetrics metrics = g.getFontMetrics();
        g.drawString(text, centerX - metrics.stringWidth(text) / 2, baselineY);
    }
}
