package org.divvy.perf.single;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;

/**
 * fib(n) with every call of n >= 2 a task in ForkJoinPool's shape ({@code org.divvy.perf.fj.FibTask}): spawns the
 * n - 1 call, makes the n - 2 call directly on this thread, then syncs. So a run spawns as many jobs as the
 * baseline forks tasks (one per call with n >= 2, about half of all calls), where the examples' {@code Fib} spawns
 * both calls. A direct call is not an invocation of its own: its spawns and its sync are those of the job it runs
 * in, so the sync at the bottom of a chain of direct calls runs the whole chain's children (newest first), and the
 * syncs above it find them done. The value is the same either way.
 */
public class FibSpawnOne implements FibSpawnOneSpawner {
    /** For the generated receiver codec. */
    public FibSpawnOne() {
    }

    @Spawnable
    public long fib(final int n) {
        if (n < 2) {
            return n;
        }
        final LongSpawn minusOne = spawnFib(n - 1);
        final long minusTwo = fib(n - 2);
        sync();
        return minusOne.get() + minusTwo;
    }
}
