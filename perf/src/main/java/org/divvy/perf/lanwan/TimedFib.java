package org.divvy.perf.lanwan;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;
import org.divvy.examples.fib.FibSequential;

/**
 * SIMULATED fib for the efficiency runs: the examples' {@code Fib} with simulated leaves (calls with
 * {@code n < threshold} and {@code n >= 2} park {@code leafUs}), its leaves timed by {@link LeafProbe}.
 */
public class TimedFib implements TimedFibSpawner {
    int threshold;
    int leafUs;
    /** Leaves last {@code leafUs} on average instead of at least ({@link LeafProbe#leaf}). */
    boolean compensated;

    /** For the generated receiver codec. */
    public TimedFib() {
    }

    public TimedFib(final int threshold, final int leafUs, final boolean compensated) {
        this.threshold = threshold;
        this.leafUs = leafUs;
        this.compensated = compensated;
    }

    @Spawnable
    public long fib(final int n) {
        if (n < 2) {
            return n;
        }
        if (n < threshold) {
            LeafProbe.leaf(leafUs, compensated);
            return FibSequential.fibIterative(n);
        }
        final LongSpawn a = spawnFib(n - 1);
        final LongSpawn b = spawnFib(n - 2);
        sync();
        return a.get() + b.get();
    }
}
