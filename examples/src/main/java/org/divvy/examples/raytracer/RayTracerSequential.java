package org.divvy.examples.raytracer;

/**
 * Renders a scene sequentially, with the same recursive split into quadrants as {@link RayTracer}
 * (thesis Fig. 2.3), so the two differ only by the spawns.
 */
public final class RayTracerSequential {
    private RayTracerSequential() {
    }

    /** The whole image, row-major, 0xRRGGBB per pixel. */
    public static int[] render(final Scene scene, final int thresholdPixels) {
        return render(scene, 0, 0, scene.width(), scene.height(), thresholdPixels);
    }

    /** The tile at {@code (x, y)} of {@code w} by {@code h} pixels, split into quadrants above the threshold. */
    public static int[] render(final Scene scene, final int x, final int y, final int w, final int h,
        final int thresholdPixels) {
        if (isLeaf(w, h, thresholdPixels)) {
            return renderTile(scene, x, y, w, h);
        }
        final int halfW = w / 2;
        final int halfH = h / 2;
        return join(w, h, halfW, halfH,
            render(scene, x, y, halfW, halfH, thresholdPixels),
            render(scene, x + halfW, y, w - halfW, halfH, thresholdPixels),
            render(scene, x, y + halfH, halfW, h - halfH, thresholdPixels),
            render(scene, x + halfW, y + halfH, w - halfW, h - halfH, thresholdPixels));
    }

    /** Whether a tile is rendered directly: small enough, or too thin to split in both directions. */
    public static boolean isLeaf(final int w, final int h, final int thresholdPixels) {
        return (long)w * h <= thresholdPixels || w < 2 || h < 2;
    }

    /** Renders one tile pixel by pixel. */
    public static int[] renderTile(final Scene scene, final int x, final int y, final int w, final int h) {
        final Tracer tracer = new Tracer(scene);
        final int[] pixels = new int[w * h];
        for (int row = 0; row < h; row++) {
            for (int column = 0; column < w; column++) {
                pixels[row * w + column] = tracer.pixel(x + column, y + row);
            }
        }
        return pixels;
    }

    /** Puts four quadrant tiles (top-left, top-right, bottom-left, bottom-right) into one w-by-h tile. */
    public static int[] join(final int w, final int h, final int halfW, final int halfH, final int[] topLeft,
        final int[] topRight, final int[] bottomLeft, final int[] bottomRight) {
        final int[] pixels = new int[w * h];
        final int rightW = w - halfW;
        final int bottomH = h - halfH;
        for (int row = 0; row < halfH; row++) {
            System.arraycopy(topLeft, row * halfW, pixels, row * w, halfW);
            System.arraycopy(topRight, row * rightW, pixels, row * w + halfW, rightW);
        }
        for (int row = 0; row < bottomH; row++) {
            System.arraycopy(bottomLeft, row * halfW, pixels, (halfH + row) * w, halfW);
            System.arraycopy(bottomRight, row * rightW, pixels, (halfH + row) * w + halfW, rightW);
        }
        return pixels;
    }
}
