package org.divvy.examples.knapsack;

import org.divvy.LongSpawn;
import org.divvy.Root;
import org.divvy.annotations.Spawnable;
import org.divvy.examples.simulated.SimulatedLeaf;

/**
 * 0/1 knapsack with Divvy: {@link KnapsackSequential#search} with the take and leave branches of the
 * first {@code spawnDepth} items spawned. Each job prunes with the best value it knows: its parent's,
 * raised by a greedy completion of its own partial packing. There is no shared incumbent, so a spawned
 * branch may explore more than the sequential search would.
 */
public class Knapsack implements KnapsackSpawner {
    /** Item weights, sorted by value density. Sent with each stolen job (the instance is small). */
    int[] weights;
    /** Item values, in the order of {@link #weights}. */
    int[] values;
    /** Decisions on items from this index on run sequentially. */
    int spawnDepth;
    /**
     * When > 0, SIMULATED WORK: a leaf job still searches (so the answer stays exact), then parks until it has lasted
     * this many ns per search node it visited, so the simulated run is as irregular as the real one. Sent with the job.
     */
    double simulatedNanosPerNode;

    /** For the generated receiver codec. */
    public Knapsack() {
    }

    public Knapsack(final KnapsackInstance instance, final int spawnDepth) {
        this(instance, spawnDepth, 0);
    }

    /** Leaf jobs last {@code simulatedNanosPerNode} ns per search node, parking after the search, if it is > 0. */
    public Knapsack(final KnapsackInstance instance, final int spawnDepth, final double simulatedNanosPerNode) {
        this.weights = instance.weights();
        this.values = instance.values();
        this.spawnDepth = spawnDepth;
        this.simulatedNanosPerNode = simulatedNanosPerNode;
    }

    /**
     * Finding the best total value of items that fit in {@code capacity}, as a run's root (the greedy packing's
     * value, the first bound, is computed here, on the calling thread).
     */
    public Root<Long> solve(final int capacity) {
        final long greedy = KnapsackSequential.greedy(weights, values, capacity);
        return Root.of(() -> spawnSearch(0, capacity, 0, greedy));
    }

    @Spawnable
    public long search(final int index, final int capacityLeft, final long value, final long bestKnown) {
        if (index >= spawnDepth) {
            if (simulatedNanosPerNode > 0) {
                return simulatedLeaf(index, capacityLeft, value, bestKnown);
            }
            return KnapsackSequential.search(weights, values, index, capacityLeft, value, bestKnown);
        }
        final long known = Math.max(value, bestKnown);
        // The children cannot see each other's results, so each starts from the best packing this
        // job can cheaply name: its parent's, or its own partial packing completed greedily.
        final long best = KnapsackSequential.boundForChildren(weights, values, index, capacityLeft, value, known);
        if (best == KnapsackSequential.PRUNED) {
            return known;
        }
        final LongSpawn take = weights[index] <= capacityLeft
            ? spawnSearch(index + 1, capacityLeft - weights[index], value + values[index], best)
            : null;
        final LongSpawn leave = spawnSearch(index + 1, capacityLeft, value, best);
        sync();
        return take == null ? leave.get() : Math.max(take.get(), leave.get());
    }

    /** The real search of a leaf, then a park until the leaf has lasted its simulated time (its nodes x the rate). */
    private long simulatedLeaf(final int index, final int capacityLeft, final long value, final long bestKnown) {
        final long startNs = System.nanoTime();
        final CountingSearch search = new CountingSearch(weights, values);
        final long best = search.search(index, capacityLeft, value, bestKnown);
        SimulatedLeaf.parkUntil(leafEndNs(startNs, search.nodes()));
        return best;
    }

    /** When a simulated leaf that started at {@code startNs} and visited {@code searchNodes} ends: its nodes x the rate. */
    long leafEndNs(final long startNs, final long searchNodes) {
        return startNs + (long)(searchNodes * simulatedNanosPerNode);
    }
}
