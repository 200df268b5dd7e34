package org.divvy.examples.knapsack;

import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KnapsackTest {
    @Test
    void shouldSortItemsByDensity() {
        final KnapsackInstance instance =
            KnapsackInstance.sortedByDensity(new int[] {10, 5, 4}, new int[] {10, 20, 12}, 9);
        assertEquals(5, instance.weights()[0]);
        assertEquals(4, instance.weights()[1]);
        assertEquals(10, instance.weights()[2]);
    }

    @Test
    void shouldSolveASmallInstanceByHand() {
        // Items (w, v): (5, 20), (4, 12), (10, 10); capacity 9: take the first two.
        final KnapsackInstance instance =
            KnapsackInstance.sortedByDensity(new int[] {10, 5, 4}, new int[] {10, 20, 12}, 9);
        assertEquals(32, KnapsackSequential.solve(instance));
        assertEquals(32, KnapsackSequential.dynamicProgramming(instance));
    }

    @Test
    void shouldAgreeWithDynamicProgrammingSequentially() {
        for (long seed = 1; seed <= 10; seed++) {
            final KnapsackInstance instance = KnapsackInstance.random(16, 1000, seed);
            final long optimum = KnapsackSequential.dynamicProgramming(instance);
            assertEquals(optimum, KnapsackSequential.solve(instance), "seed " + seed);
            assertTrue(KnapsackSequential.greedy(instance.weights(), instance.values(), instance.capacity()) <= optimum);
            assertTrue(KnapsackSequential.upperBound(instance.weights(), instance.values(), 0, instance.capacity(), 0)
                >= optimum);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldAgreeWithDynamicProgrammingInParallel(final int workers) {
        for (long seed = 1; seed <= 4; seed++) {
            final KnapsackInstance instance = KnapsackInstance.random(18, 1000, seed);
            final long optimum = KnapsackSequential.dynamicProgramming(instance);
            for (final int depth : new int[] {0, 3, 18, 30}) {
                final long best = Nodes.run(workers, new Knapsack(instance, depth).solve(instance.capacity()));
                assertEquals(optimum, best, "seed " + seed + " spawn depth " + depth);
            }
        }
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final KnapsackInstance instance = KnapsackInstance.random(14, 500, 9);
        final KnapsackJobs.SearchJob copy = WireCopies.copy(
            new KnapsackJobs.SearchJob(new Knapsack(instance, 0), 0, instance.capacity(), 0, 0));
        assertEquals(KnapsackSequential.dynamicProgramming(instance), copy.call());
    }

    @Test
    void shouldFindTheSpawnTreesAnswerAndLeavesByCensus() {
        for (long seed = 1; seed <= 4; seed++) {
            final KnapsackInstance instance = KnapsackInstance.random(18, 1000, seed);
            for (final int depth : new int[] {0, 3, 8}) {
                final LeafCensus census = LeafCensus.of(instance, depth);
                assertEquals(KnapsackSequential.dynamicProgramming(instance), census.answer(), "seed " + seed);
                assertTrue(census.leaves() >= 1 && census.nodes() >= census.leaves(), census.toString());
                assertEquals(depth > 0, census.jobs() > census.leaves(), census.toString());
                assertEquals(1_000.0 * census.leaves() / census.nodes(), census.nanosPerNode(1), 1e-9);
            }
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldFindTheRealAnswerWithSimulatedLeaves(final int workers) {
        for (long seed = 1; seed <= 3; seed++) {
            final KnapsackInstance instance = KnapsackInstance.random(20, 1000, seed);
            final double nanosPerNode = LeafCensus.of(instance, 8).nanosPerNode(200); // the mean leaf parks 0.2 ms
            final long best = Nodes.run(workers, new Knapsack(instance, 8, nanosPerNode).solve(instance.capacity()));
            assertEquals(KnapsackSequential.dynamicProgramming(instance), best, "seed " + seed);
        }
    }

    /** The leaf's end is computed, not timed here: the park itself is SimulatedLeaf.parkUntil's, shared with fib and uts. */
    @Test
    void shouldMakeASimulatedLeafLastItsNodesTimesTheRate() {
        final KnapsackInstance instance = KnapsackInstance.random(16, 1000, 3);
        final long nodes = LeafCensus.of(instance, 0).nodes(); // spawn depth 0: the root is the one leaf
        final double nanosPerNode = 20_000_000.0 / nodes; // the leaf lasts 20 ms
        final Knapsack knapsack = new Knapsack(instance, 0, nanosPerNode);
        final long best = knapsack.search(0, instance.capacity(), 0, 0);
        assertEquals(KnapsackSequential.dynamicProgramming(instance), best);
        assertEquals(1_000 + 20_000_000L, knapsack.leafEndNs(1_000, nodes), 1, "a leaf of the census's nodes ends 20 ms after its start");
    }
}
