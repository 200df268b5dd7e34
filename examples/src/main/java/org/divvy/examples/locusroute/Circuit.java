package org.divvy.examples.locusroute;

import java.util.SplittableRandom;

/**
 * A routing problem: a {@code width x height} grid of cells and two-pin wires, wire {@code w} from
 * ({@code pins[4w]}, {@code pins[4w+1]}) to ({@code pins[4w+2]}, {@code pins[4w+3]}). A record of arrays, so it
 * travels with stolen jobs.
 */
public record Circuit(int width, int height, int[] pins) {
    public int wires() {
        return pins.length / 4;
    }

    /**
     * A seeded random circuit: each wire's first pin uniform on the grid, its second within {@code span} cells of
     * it in each direction (clipped to the grid), as standard-cell wires are mostly local.
     */
    public static Circuit random(final int width, final int height, final int wires, final int span, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] pins = new int[4 * wires];
        for (int w = 0; w < wires; w++) {
            final int x1 = random.nextInt(width);
            final int y1 = random.nextInt(height);
            pins[4 * w] = x1;
            pins[4 * w + 1] = y1;
            pins[4 * w + 2] = Math.max(0, Math.min(width - 1, x1 + random.nextInt(-span, span + 1)));
            pins[4 * w + 3] = Math.max(0, Math.min(height - 1, y1 + random.nextInt(-span, span + 1)));
        }
        return new Circuit(width, height, pins);
    }
}
