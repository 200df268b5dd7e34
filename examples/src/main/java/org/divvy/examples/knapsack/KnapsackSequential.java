package org.divvy.examples.knapsack;

/**
 * 0/1 knapsack, sequentially, by depth-first branch and bound over items sorted by value density:
 * at item {@code i} take it (if it fits) then leave it, pruning a branch whose fractional
 * (linear-relaxation) upper bound cannot beat the best value found so far. The search is a pure
 * function: it receives the best value known and returns the best value known after the subtree.
 *
 * <p>Also the reference: {@link #dynamicProgramming}, an independent exact algorithm.
 */
public final class KnapsackSequential {
    private KnapsackSequential() {
    }

    /** The best total value of items that fit. */
    public static long solve(final KnapsackInstance instance) {
        final long greedy = greedy(instance.weights(), instance.values(), instance.capacity());
        return search(instance.weights(), instance.values(), 0, instance.capacity(), 0, greedy);
    }

    /**
     * The best value of the subtree that decides items {@code index..n-1} with {@code capacityLeft}
     * room and {@code value} already packed, or {@code bestKnown} when the subtree holds nothing better.
     */
    public static long search(final int[] weights, final int[] values, final int index, final int capacityLeft,
        final long value, final long bestKnown) {
        long best = Math.max(value, bestKnown);
        if (index == weights.length || upperBound(weights, values, index, capacityLeft, value) <= best) {
            return best;
        }
        if (weights[index] <= capacityLeft) {
            best = search(weights, values, index + 1, capacityLeft - weights[index], value + values[index], best);
        }
        return search(weights, values, index + 1, capacityLeft, value, best);
    }

    /**
     * An upper bound on any completion: the remaining items taken greedily by density, the first that
     * does not fit taken fractionally. Values are integers, so the fraction is rounded down.
     */
    public static long upperBound(final int[] weights, final int[] values, final int index, final int capacityLeft,
        final long value) {
        long bound = value;
        long room = capacityLeft;
        for (int i = index; i < weights.length; i++) {
            if (weights[i] <= room) {
                room -= weights[i];
                bound += values[i];
            } else {
                return bound + values[i] * room / weights[i];
            }
        }
        return bound;
    }

    /** What {@link #boundForChildren} returns for a subtree that cannot beat the best known packing. */
    public static final long PRUNED = Long.MIN_VALUE;

    /**
     * What a split at {@code index} passes down to both children, the children not seeing each other's results: the
     * best packing known or cheaply named (this partial packing completed greedily); {@link #PRUNED} when there is
     * nothing to split (every item decided, or the upper bound not above {@code known}). The parallel search's jobs
     * and the census that walks their tree untimed make the same decision here.
     */
    public static long boundForChildren(final int[] weights, final int[] values, final int index, final int capacityLeft,
        final long value, final long known) {
        if (index == weights.length || upperBound(weights, values, index, capacityLeft, value) <= known) {
            return PRUNED;
        }
        return Math.max(known, greedyCompletion(weights, values, index, capacityLeft, value));
    }

    /** The value of taking items in density order while they fit: a first lower bound. */
    public static long greedy(final int[] weights, final int[] values, final int capacity) {
        return greedyCompletion(weights, values, 0, capacity, 0);
    }

    /** A partial packing completed by taking items {@code index..n-1} in density order while they fit. */
    public static long greedyCompletion(final int[] weights, final int[] values, final int index,
        final int capacityLeft, final long value) {
        long completed = value;
        long room = capacityLeft;
        for (int i = index; i < weights.length; i++) {
            if (weights[i] <= room) {
                room -= weights[i];
                completed += values[i];
            }
        }
        return completed;
    }

    /** The optimum by dynamic programming over capacities, O(n * capacity); the reference answer. */
    public static long dynamicProgramming(final KnapsackInstance instance) {
        final int capacity = instance.capacity();
        final long[] best = new long[capacity + 1];
        for (int i = 0; i < instance.size(); i++) {
            final int weight = instance.weights()[i];
            final int value = instance.values()[i];
            for (int c = capacity; c >= weight; c--) {
                best[c] = Math.max(best[c], best[c - weight] + value);
            }
        }
        return best[capacity];
    }
}
