/**
 * Bar charts of benchmark ratios, drawn with Java2D into a {@link java.awt.image.BufferedImage} and written
 * as PNG with {@link javax.imageio.ImageIO}: no charting library, and it works headless.
 */
package org.divvy.perf.chart;
