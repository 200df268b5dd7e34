package org.divvy.examples.uts;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * SIMULATED WORK for {@link Uts}: a subtree at the spawn depth parks instead of being searched. It
 * lives in the kernel's package (not the launcher's) because it runs wherever the job runs, and a
 * kernel depends only on the runtime API and its own package; fib has the same few lines.
 */
final class SimulatedLeaf {
    private SimulatedLeaf() {
    }

    /**
     * Parks the calling worker for {@code leafUs} microseconds (again after an early wake-up, unless
     * interrupted), using no CPU meanwhile.
     */
    static void park(final int leafUs) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(leafUs);
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(remainingNs);
        }
    }
}
