package org.divvy.examples.fib;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;

/**
 * Fibonacci with Divvy: {@link FibSequential#fib(int)} with its two recursive calls spawned. Below the
 * threshold the sequential version runs, so a job is worth its spawn.
 */
public class Fib implements FibSpawner {
    /** Calls with {@code n < threshold} run sequentially; 0 or 1 spawns every call. Sent with the job. */
    int threshold;

    /** For the generated receiver codec. */
    public Fib() {
    }

    public Fib(final int threshold) {
        this.threshold = threshold;
    }

    @Spawnable
    public long fib(final int n) {
        if (n < 2) {
            return n;
        }
        if (n < threshold) {
            return FibSequential.fib(n);
        }
        final LongSpawn a = spawnFib(n - 1);
        final LongSpawn b = spawnFib(n - 2);
        sync();
        return a.get() + b.get();
    }
}
