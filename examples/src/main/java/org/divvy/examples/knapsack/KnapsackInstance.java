package org.divvy.examples.knapsack;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * A 0/1 knapsack instance with its items sorted by value density (value per unit of weight),
 * highest first, as branch and bound needs them.
 *
 * @param weights  item weights, all > 0
 * @param values   item values, all > 0, same order as the weights
 * @param capacity the knapsack's capacity
 */
public record KnapsackInstance(int[] weights, int[] values, int capacity) {

    public KnapsackInstance {
        if (weights.length != values.length) {
            throw new IllegalArgumentException("weights.length=" + weights.length + ", must equal values.length="
                + values.length);
        }
    }

    public int size() {
        return weights.length;
    }

    /**
     * A seeded random instance that keeps branch and bound busy: even weights in {@code [2, 2 * weightRange]},
     * values equal to weights, and an odd capacity near half the total weight (Pisinger's "even-odd"
     * family). The fractional bound then always promises one unit more than any packing can reach, so
     * little is pruned and the work grows about 1.9x per item; random uncorrelated or strongly
     * correlated items are solved in microseconds by the same search and would measure nothing.
     */
    public static KnapsackInstance random(final int items, final int weightRange, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final int[] weights = new int[items];
        final int[] values = new int[items];
        long totalWeight = 0;
        for (int i = 0; i < items; i++) {
            weights[i] = 2 * (1 + random.nextInt(weightRange));
            values[i] = weights[i];
            totalWeight += weights[i];
        }
        return sortedByDensity(weights, values, (int)(totalWeight / 2) | 1);
    }

    /** The same items, sorted by value density, highest first (ties: heavier first, then index). */
    public static KnapsackInstance sortedByDensity(final int[] weights, final int[] values, final int capacity) {
        final Integer[] order = new Integer[weights.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Compare v_a / w_a with v_b / w_b exactly, by cross-multiplication.
        final Comparator<Integer> byDensity =
            (a, b) -> Long.compare((long)values[b] * weights[a], (long)values[a] * weights[b]);
        Arrays.sort(order, byDensity.thenComparing((a, b) -> Integer.compare(weights[b], weights[a]))
            .thenComparing(Comparator.naturalOrder()));
        final int[] sortedWeights = new int[weights.length];
        final int[] sortedValues = new int[values.length];
        for (int i = 0; i < order.length; i++) {
            sortedWeights[i] = weights[order[i]];
            sortedValues[i] = values[order[i]];
        }
        return new KnapsackInstance(sortedWeights, sortedValues, capacity);
    }
}
