package org.divvy.examples.simulated;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * SIMULATED WORK for the leaves of fib, uts and knapsack: a leaf parks instead of computing, so a run of 24 to 64
 * nodes fits on a 2-core machine and measures scheduling and stealing rather than arithmetic. It lives
 * apart from the launcher because it runs wherever a leaf job runs: the one package besides the runtime
 * API that kernels may import. Public so a benchmark can calibrate the same park.
 */
public final class SimulatedLeaf {
    private SimulatedLeaf() {
    }

    /**
     * Parks the calling worker for {@code leafUs} microseconds (again after an early wake-up, unless
     * interrupted), using no CPU meanwhile.
     */
    public static void park(final int leafUs) {
        parkUntil(System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(leafUs));
    }

    /**
     * Parks the calling worker until {@code System.nanoTime()} reaches {@code deadlineNs} (at once if it has), using
     * no CPU meanwhile: for a leaf that computes its real answer first and parks the rest of its simulated time.
     */
    public static void parkUntil(final long deadlineNs) {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(remainingNs);
        }
    }
}
