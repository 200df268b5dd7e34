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
}
