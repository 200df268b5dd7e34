package org.divvy.examples.raytracer;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

import javax.imageio.ImageIO;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code raytracer} command. */
@Command(name = "raytracer", mixinStandardHelpOptions = true,
    description = "Ray traces spheres on a checkered plane (Phong shading, shadows, reflections), spawning "
        + "quadrants of the image down to a tile size; checked pixel for pixel against a sequential render; "
        + "writes a PNG.")
public final class RayTracerApp implements ExampleApp {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--width", paramLabel = "PX", description = "image width (default: ${DEFAULT-VALUE})")
    int width = 1280;

    @Option(names = "--height", paramLabel = "PX", description = "image height (default: ${DEFAULT-VALUE})")
    int height = 960;

    @Option(names = "--samples", paramLabel = "S",
        description = "supersampling: S x S rays per pixel (default: ${DEFAULT-VALUE})")
    int samplesPerAxis = 2;

    @Option(names = "--threshold", paramLabel = "PIXELS",
        description = "tiles of at most this many pixels are traced without splitting (default: ${DEFAULT-VALUE})")
    int thresholdPixels = 64 * 64;

    @Option(names = "--out", paramLabel = "FILE",
        description = "PNG file to write; empty for none (default: ${DEFAULT-VALUE})")
    String out = "raytrace.png";

    public RayTracerApp() {
    }

    public RayTracerApp(final int width, final int height, final int samplesPerAxis, final int thresholdPixels) {
        this.width = width;
        this.height = height;
        this.samplesPerAxis = samplesPerAxis;
        this.thresholdPixels = thresholdPixels;
        this.out = "";
    }

    @Override
    public String name() {
        return "raytracer";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--width", width, 1, 16384);
        Options.inRange("--height", height, 1, 16384);
        Options.inRange("--samples", samplesPerAxis, 1, 16);
        Options.atLeast("--threshold", thresholdPixels, 1);
    }

    @Override
    public Problem<int[]> prepare() {
        validate();
        final Scene scene = Scene.demo(width, height, samplesPerAxis);
        final int threshold = thresholdPixels;
        final String outFile = out;
        return new Problem<>() {
            @Override
            public Root<int[]> root() {
                return new RayTracer(threshold).renderImage(scene);
            }

            @Override
            public int[] solveSequential() {
                return RayTracerSequential.render(scene, threshold);
            }

            @Override
            public Check check(final int[] answer) {
                // The reference traces the image row by row, without tiles: a different order of work,
                // the same pixels.
                final int[] expected = RayTracerSequential.renderTile(scene, 0, 0, scene.width(), scene.height());
                if (Arrays.equals(answer, expected)) {
                    return Check.pass("pixel-identical to a row-by-row sequential render (crc32 "
                        + checksum(expected) + ")");
                }
                final int mismatch = Arrays.mismatch(answer, expected);
                return Check.fail("differs from a row-by-row sequential render"
                    + (mismatch < 0 || mismatch >= Math.min(answer.length, expected.length)
                        ? ": " + answer.length + " pixels instead of " + expected.length
                        : " first at pixel (" + mismatch % scene.width() + ", " + mismatch / scene.width() + ")"));
            }

            @Override
            public String describe(final int[] answer) {
                return "rendered " + scene.width() + "x" + scene.height() + " pixels, " + samplesPerAxis * samplesPerAxis
                    + " rays each, crc32 " + checksum(answer);
            }

            @Override
            public void afterRun(final int[] answer) {
                if (!outFile.isEmpty()) {
                    writePng(answer, scene.width(), scene.height(), Path.of(outFile));
                    System.out.println("wrote " + Path.of(outFile).toAbsolutePath());
                }
            }
        };
    }

    /** The CRC-32 of the pixels (each as 4 big-endian bytes), as 8 hex digits. */
    public static String checksum(final int[] pixels) {
        final CRC32 crc = new CRC32();
        final byte[] bytes = new byte[4];
        for (final int pixel : pixels) {
            bytes[0] = (byte)(pixel >>> 24);
            bytes[1] = (byte)(pixel >>> 16);
            bytes[2] = (byte)(pixel >>> 8);
            bytes[3] = (byte)pixel;
            crc.update(bytes);
        }
        return String.format("%08x", crc.getValue());
    }

    /** Writes 0xRRGGBB pixels, row-major, as a PNG. */
    public static void writePng(final int[] pixels, final int width, final int height, final Path file) {
        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, width, height, pixels, 0, width);
        try {
            if (!ImageIO.write(image, "png", file.toFile())) {
                throw new IllegalStateException("no PNG writer in this JVM");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
