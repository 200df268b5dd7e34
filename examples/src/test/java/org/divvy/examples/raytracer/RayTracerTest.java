package org.divvy.examples.raytracer;

import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RayTracerTest {
    @Test
    void shouldJoinQuadrantsOfOddSizesInPlace() {
        // A 3x3 tile: quadrants 1x1, 2x1, 1x2, 2x2.
        final int[] joined = RayTracerSequential.join(3, 3, 1, 1, new int[] {1}, new int[] {2, 3}, new int[] {4, 7},
            new int[] {5, 6, 8, 9});
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, joined);
    }

    @Test
    void shouldRenderTheSamePixelsWithAndWithoutTiles() {
        final Scene scene = Scene.demo(37, 23, 1);
        assertArrayEquals(RayTracerSequential.renderTile(scene, 0, 0, 37, 23), RayTracerSequential.render(scene, 16));
    }

    @Test
    void shouldRenderAnImageWithSeveralColours() {
        final int[] pixels = RayTracerSequential.render(Scene.demo(48, 36, 1), 256);
        assertTrue(Arrays.stream(pixels).distinct().count() > 50, "a real picture, not a flat colour");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldRenderPixelIdenticalImagesInParallel(final int workers) {
        final Scene scene = Scene.demo(97, 61, 2);
        final int[] expected = RayTracerSequential.renderTile(scene, 0, 0, 97, 61);
        for (final int threshold : new int[] {1, 64, 1000}) {
            final int[] pixels = Nodes.run(workers, new RayTracer(threshold).renderImage(scene));
            assertEquals(97 * 61, pixels.length);
            assertArrayEquals(expected, pixels, "threshold " + threshold);
        }
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final Scene scene = Scene.demo(31, 17, 1);
        final RayTracerJobs.RenderJob copy =
            WireCopies.copy(new RayTracerJobs.RenderJob(new RayTracer(1 << 20), scene, 5, 3, 20, 11));
        final int[] tile = copy.call();
        assertArrayEquals(RayTracerSequential.renderTile(scene, 5, 3, 20, 11), tile, "the scene arrives intact");
        final WireWriter writer = new WireWriter();
        copy.writeValue(writer, tile);
        assertArrayEquals(tile, copy.readValue(new WireReader(writer.toByteArray())), "the tile travels back");
    }
}
