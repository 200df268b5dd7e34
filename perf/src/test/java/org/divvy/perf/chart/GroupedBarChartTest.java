package org.divvy.perf.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(20)
class GroupedBarChartTest {
    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void shouldWriteAReadablePngWithTheBarsDrawn(@TempDir final Path dir) throws IOException {
        final GroupedBarChart chart = new GroupedBarChart("title", "subtitle", "ratio", List.of("a", "b"),
            List.of(new BarSeries("s1", Color.BLUE, new double[] {0.5, 2.0}),
                new BarSeries("s2", Color.ORANGE, new double[] {1.5, Double.NaN})),
            1.0);
        final Path png = dir.resolve("chart.png");
        chart.writePng(png);
        final BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1000, image.getWidth());
        int blue = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                if (image.getRGB(x, y) == Color.BLUE.getRGB()) {
                    blue++;
                }
            }
        }
        assertNotEquals(0, blue, "the blue series' bars are drawn");
    }

    @Test
    void shouldRejectASeriesWithTheWrongNumberOfValues() {
        assertThrows(IllegalArgumentException.class, () -> new GroupedBarChart("t", "s", "y", List.of("a", "b"),
            List.of(new BarSeries("s1", Color.BLUE, new double[] {1})), 1.0));
    }

    @Test
    void shouldRoundAxisMaximaToNiceNumbers() {
        assertEquals(2.5, GroupedBarChart.niceCeiling(2.3), 1e-12);
        assertEquals(5.0, GroupedBarChart.niceCeiling(2.6), 1e-12);
        assertEquals(10.0, GroupedBarChart.niceCeiling(9.2), 1e-12);
        assertEquals(0.2, GroupedBarChart.niceCeiling(0.15), 1e-12);
    }
}
