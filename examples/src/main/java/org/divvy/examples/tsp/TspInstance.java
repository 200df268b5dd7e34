package org.divvy.examples.tsp;

/**
 * A symmetric travelling-salesman instance: integer distances between {@code size} cities, as TSPLIB
 * defines them for the instance's edge-weight type. A record of arrays, so it travels with stolen jobs.
 *
 * @param name      the instance's name, e.g. {@code "gr24"} or {@code "random-20-seed-7"}
 * @param size      the number of cities
 * @param distances row-major {@code size x size} distances, symmetric, zero on the diagonal
 */
public record TspInstance(String name, int size, int[] distances) {
    /** At most this many cities: visited sets are bit masks in a {@code long}. */
    public static final int MAX_CITIES = 63;

    public TspInstance {
        if (size < 3 || size > MAX_CITIES) {
            throw new IllegalArgumentException("a TSP instance has 3 to " + MAX_CITIES + " cities, " + name
                + " has " + size);
        }
        if (distances.length != size * size) {
            throw new IllegalArgumentException("distances.length=" + distances.length + ", must be size^2="
                + size * size);
        }
    }

    public int distance(final int from, final int to) {
        return distances[from * size + to];
    }

    /** The length of the closed tour visiting the cities in {@code order}. */
    public int tourLength(final int[] order) {
        int length = 0;
        for (int i = 0; i < order.length; i++) {
            length += distance(order[i], order[(i + 1) % order.length]);
        }
        return length;
    }

    /**
     * A seeded random instance: cities at integer points of a 1000 x 1000 square, EUC_2D distances
     * (Euclidean, rounded to the nearest integer).
     */
    public static TspInstance random(final int cities, final long seed) {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        final double[] x = new double[cities];
        final double[] y = new double[cities];
        for (int i = 0; i < cities; i++) {
            x[i] = random.nextInt(1000);
            y[i] = random.nextInt(1000);
        }
        final int[] distances = new int[cities * cities];
        for (int i = 0; i < cities; i++) {
            for (int j = 0; j < cities; j++) {
                distances[i * cities + j] = Tsplib.euclidean2d(x[i], y[i], x[j], y[j]);
            }
        }
        return new TspInstance("random-" + cities + "-seed-" + seed, cities, distances);
    }
}
