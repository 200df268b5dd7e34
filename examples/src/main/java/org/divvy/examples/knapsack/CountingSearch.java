package org.divvy.examples.knapsack;

/**
 * {@link KnapsackSequential#search} that also counts the search nodes it visits: the measure of a leaf job's work,
 * in proportion to which a SIMULATED leaf parks, so a simulated run stays as irregular as the real search (leaves
 * pruned at once, leaves that search thousands of nodes). One per leaf, on the worker that runs it.
 */
final class CountingSearch {
    private final int[] weights;
    private final int[] values;
    private long nodes;

    CountingSearch(final int[] weights, final int[] values) {
        this.weights = weights;
        this.values = values;
    }

    /** Search nodes visited so far. */
    long nodes() {
        return nodes;
    }

    /** The same search, node for node, as {@link KnapsackSequential#search}. */
    long search(final int index, final int capacityLeft, final long value, final long bestKnown) {
        nodes++;
        long best = Math.max(value, bestKnown);
        if (index == weights.length || KnapsackSequential.upperBound(weights, values, index, capacityLeft, value) <= best) {
            return best;
        }
        if (weights[index] <= capacityLeft) {
            best = search(index + 1, capacityLeft - weights[index], value + values[index], best);
        }
        return search(index + 1, capacityLeft, value, best);
    }
}
