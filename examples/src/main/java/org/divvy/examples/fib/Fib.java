package org.divvy.examples.fib;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;
import org.divvy.examples.simulated.SimulatedLeaf;

/**
 * Fibonacci with Divvy: {@link FibSequential#fib(int)} with its two recursive calls spawned. Below the
 * threshold the sequential version runs, so a job is worth its spawn.
 */
public class Fib implements FibSpawner {
    /** Calls with {@code n < threshold} run sequentially; 0 or 1 spawns every call. Sent with the job. */
    int threshold;
    /** When > 0, SIMULATED WORK: a leaf parks this many µs and takes its value by iteration. Sent with the job. */
    int simulatedLeafUs;

    /** For the generated receiver codec. */
    public Fib() {
    }

    public Fib(final int threshold) {
        this.threshold = threshold;
    }

    /** Leaves ({@code n < threshold}) park {@code simulatedLeafUs} µs instead of recursing, if it is > 0. */
    public Fib(final int threshold, final int simulatedLeafUs) {
        this.threshold = threshold;
        this.simulatedLeafUs = simulatedLeafUs;
    }

    @Spawnable
    public long fib(final int n) {
        if (n < 2) {
            return n;
        }
        if (n < threshold) {
            if (simulatedLeafUs > 0) {
                SimulatedLeaf.park(simulatedLeafUs);
                return FibSequential.fibIterative(n);
            }
            return FibSequential.fib(n);
        }
        final LongSpawn a = spawnFib(n - 1);
        final LongSpawn b = spawnFib(n - 2);
        sync();
        return a.get() + b.get();
    }
}
