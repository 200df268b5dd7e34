package org.divvy.examples.knapsack;

/**
 * The leaf jobs of {@link Knapsack}'s spawn tree for one instance and spawn depth, found by walking the tree
 * sequentially with the same bounds the jobs use (each child starts from its parent's bound, not its siblings'
 * results, so the tree does not depend on the schedule): how a simulated run turns "the mean leaf lasts US µs" into
 * a park per search node.
 *
 * @param jobs   spawned jobs, the root's included
 * @param leaves jobs at the spawn depth, which search sequentially
 * @param nodes  search nodes the leaves visit, all together
 * @param answer the best value, as the spawned search returns it
 */
record LeafCensus(long jobs, long leaves, long nodes, long answer) {

    /** The census of {@code instance}'s spawn tree cut at {@code spawnDepth}. */
    static LeafCensus of(final KnapsackInstance instance, final int spawnDepth) {
        final Walk walk = new Walk(instance.weights(), instance.values(), spawnDepth);
        final long answer = walk.job(0, instance.capacity(), 0,
            KnapsackSequential.greedy(instance.weights(), instance.values(), instance.capacity()));
        return new LeafCensus(walk.jobs, walk.leaves, walk.search.nodes(), answer);
    }

    /** Nanoseconds a simulated leaf parks per search node, so the mean leaf parks {@code leafUs} µs. */
    double nanosPerNode(final int leafUs) {
        return leaves == 0 ? 0 : leafUs * 1_000.0 * leaves / nodes;
    }

    /** {@link Knapsack#search} without spawns, counting. */
    private static final class Walk {
        private final int[] weights;
        private final int[] values;
        private final int spawnDepth;
        private final CountingSearch search;
        private long jobs;
        private long leaves;

        Walk(final int[] weights, final int[] values, final int spawnDepth) {
            this.weights = weights;
            this.values = values;
            this.spawnDepth = spawnDepth;
            this.search = new CountingSearch(weights, values);
        }

        long job(final int index, final int capacityLeft, final long value, final long bestKnown) {
            jobs++;
            if (index >= spawnDepth) {
                leaves++;
                return search.search(index, capacityLeft, value, bestKnown);
            }
            final long known = Math.max(value, bestKnown);
            final long best = KnapsackSequential.boundForChildren(weights, values, index, capacityLeft, value, known);
            if (best == KnapsackSequential.PRUNED) {
                return known;
            }
            final long take = weights[index] <= capacityLeft
                ? job(index + 1, capacityLeft - weights[index], value + values[index], best)
                : Long.MIN_VALUE;
            return Math.max(take, job(index + 1, capacityLeft, value, best));
        }
    }
}
