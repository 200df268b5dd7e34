package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.RunStatistics;
import org.divvy.Spawn;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random trees with failures and aborts, run many times on 4 workers: every run must end, and every
 * spawned job must be either executed or cancelled before it started, exactly once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerStressTest {
    private static long mix(final long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Sums the leaves of a random tree; {@code failPerMille} of the nodes throw, {@code abortPerMille} abort. */
    static long tree(final long seed, final int depth, final int failPerMille, final int abortPerMille) {
        final long r = mix(seed);
        if (failPerMille > 0 && Math.floorMod(r, 1000) < failPerMille) {
            throw new IllegalStateException("node " + seed);
        }
        if (depth == 0) {
            return Math.floorMod(r >>> 10, 100);
        }
        final int fanOut = 1 + (int)Math.floorMod(r >>> 20, 4);
        final boolean aborts = abortPerMille > 0 && Math.floorMod(r >>> 30, 1000) < abortPerMille;
        final List<Spawn<Long>> children = new ArrayList<>(fanOut);
        final long[] firstResult = {-1};
        for (int i = 0; i < fanOut; i++) {
            final long childSeed = seed * 31 + i + 1;
            final Spawn<Long> child = TaskJob.spawn("tree", () -> tree(childSeed, depth - 1, failPerMille, abortPerMille));
            if (aborts) {
                child.onResult(v -> {
                    if (firstResult[0] < 0) {
                        firstResult[0] = v;
                        Spawns.abort();
                    }
                });
            }
            children.add(child);
        }
        Spawns.sync();
        if (aborts) {
            return Math.max(0, firstResult[0]);
        }
        long sum = 0;
        for (final Spawn<Long> child : children) {
            sum += child.get();
        }
        return sum;
    }

    static long treeSequentialWithoutFaults(final long seed, final int depth) {
        final long r = mix(seed);
        if (depth == 0) {
            return Math.floorMod(r >>> 10, 100);
        }
        final int fanOut = 1 + (int)Math.floorMod(r >>> 20, 4);
        long sum = 0;
        for (int i = 0; i < fanOut; i++) {
            sum += treeSequentialWithoutFaults(seed * 31 + i + 1, depth - 1);
        }
        return sum;
    }

    private static void assertEveryJobAccountedFor(final RunStatistics s) {
        assertEquals(s.jobsSpawned(), s.jobsExecuted() + s.jobsCancelled(), s.toString());
    }

    @Test
    void shouldComputeRandomTreesExactlyWithoutFaults() {
        try (DivvyNode node = SpawnSyncTest.node(4)) {
            for (int run = 0; run < 20; run++) {
                final long seed = run;
                final var r = node.run(() -> tree(seed, 10, 0, 0));
                assertEquals(treeSequentialWithoutFaults(seed, 10), r.value());
                assertEquals(r.statistics().jobsSpawned(), r.statistics().jobsExecuted());
            }
        }
    }

    @Test
    void shouldEndEveryRunWithFailuresAndAccountForEveryJob() {
        try (DivvyNode node = SpawnSyncTest.node(4)) {
            int failedRuns = 0;
            for (int run = 0; run < 40; run++) {
                final long seed = 1000 + run;
                try {
                    final var r = node.run(() -> tree(seed, 10, 3, 0));
                    assertEveryJobAccountedFor(r.statistics());
                } catch (final IllegalStateException expected) {
                    failedRuns++;
                }
            }
            assertTrue(failedRuns > 0, "some runs failed");
        }
    }

    @Test
    void shouldEndEveryRunWithAbortsAndAccountForEveryJob() {
        try (DivvyNode node = SpawnSyncTest.node(4)) {
            long cancelled = 0;
            for (int run = 0; run < 40; run++) {
                final long seed = 5000 + run;
                final var r = node.run(() -> tree(seed, 10, 0, 200));
                assertEveryJobAccountedFor(r.statistics());
                cancelled += r.statistics().jobsCancelled();
            }
            assertTrue(cancelled > 0, "aborts cancelled queued jobs");
        }
    }

    @Test
    void shouldEndEveryRunWithFailuresAndAborts() {
        try (DivvyNode node = SpawnSyncTest.node(3)) {
            for (int run = 0; run < 40; run++) {
                final long seed = 9000 + run;
                try {
                    final var r = node.run(() -> tree(seed, 10, 2, 150));
                    assertEveryJobAccountedFor(r.statistics());
                } catch (final IllegalStateException expected) {
                    // a failure reached the root
                }
            }
            assertEquals(Fib.fibSequential(20), node.run(() -> new Fib(4).fib(20)).value(), "node still works");
        }
    }
}
