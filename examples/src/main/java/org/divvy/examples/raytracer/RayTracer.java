package org.divvy.examples.raytracer;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * A ray tracer with Divvy: the image is split recursively into quadrants (thesis Fig. 2.3), each
 * quadrant spawned, down to tiles of at most {@code thresholdPixels} pixels, which are traced directly.
 * Each job returns its tile's pixels; the scene travels with stolen jobs.
 */
public class RayTracer implements RayTracerSpawner {
    /** Tiles of at most this many pixels are traced without further splitting. */
    int thresholdPixels;

    /** For the generated receiver codec. */
    public RayTracer() {
    }

    public RayTracer(final int thresholdPixels) {
        this.thresholdPixels = thresholdPixels;
    }

    /** Rendering the whole image (row-major, 0xRRGGBB per pixel), as a run's root. */
    public Root<int[]> renderImage(final Scene scene) {
        return Root.of(() -> spawnRender(scene, 0, 0, scene.width(), scene.height()));
    }

    /** The tile at {@code (x, y)} of {@code w} by {@code h} pixels, row-major. */
    @Spawnable
    public int[] render(final Scene scene, final int x, final int y, final int w, final int h) {
        if (RayTracerSequential.isLeaf(w, h, thresholdPixels)) {
            return RayTracerSequential.renderTile(scene, x, y, w, h);
        }
        final int halfW = w / 2;
        final int halfH = h / 2;
        final Spawn<int[]> topLeft = spawnRender(scene, x, y, halfW, halfH);
        final Spawn<int[]> topRight = spawnRender(scene, x + halfW, y, w - halfW, halfH);
        final Spawn<int[]> bottomLeft = spawnRender(scene, x, y + halfH, halfW, h - halfH);
        final Spawn<int[]> bottomRight = spawnRender(scene, x + halfW, y + halfH, w - halfW, h - halfH);
        sync();
        return RayTracerSequential.join(w, h, halfW, halfH, topLeft.get(), topRight.get(), bottomLeft.get(),
            bottomRight.get());
    }
}
