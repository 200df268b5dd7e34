package org.divvy.perf.lanwan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

import org.divvy.examples.simulated.SimulatedLeaf;

/**
 * Where a SIMULATED efficiency run's time goes, seen from the leaves: each worker thread that parks a leaf
 * keeps its own {@link Timeline} (first leaf's start, last leaf's end, time actually parked, leaves), so
 * the harness can split the lost node-time into park overshoot, start-up ramp, end tail and idle gaps.
 *
 * <p>Static on purpose, unlike the runtime's state: a leaf runs on whichever node stole it and has no handle
 * on the harness, and every node of an efficiency run lives in this JVM with one worker thread each, so a
 * per-thread record is a per-node record. A run starts a new generation; a timeline from an older one resets
 * itself at its next leaf. Per leaf: one thread-local read, one volatile read, two clock readings.
 */
final class LeafProbe {
    private static final ConcurrentLinkedQueue<Timeline> TIMELINES = new ConcurrentLinkedQueue<>();
    private static final ThreadLocal<Timeline> OWN = ThreadLocal.withInitial(() -> {
        final Timeline t = new Timeline(Thread.currentThread().getName());
        TIMELINES.add(t);
        return t;
    });
    private static volatile int generation;

    private LeafProbe() {
    }

    /** A new run starts: leaves from now on count for it (call while no leaf runs). */
    static void startRun() {
        generation++;
    }

    /**
     * Parks one leaf of {@code leafUs} and records it on this thread's timeline. Plain: as {@link SimulatedLeaf#park}, at
     * least {@code leafUs} (a park wakes late: ~10% of a 1 ms leaf on this 2-core machine under the runs' load).
     * Compensated: the park ends early by this thread's running estimate of how late parks wake, so a leaf lasts
     * {@code leafUs} on average and the nominal ideal time is the time the leaves really took.
     */
    static void leaf(final int leafUs, final boolean compensated) {
        final Timeline t = OWN.get();
        final int g = generation;
        if (t.generation != g) {
            t.reset(g);
        }
        final long startNs = System.nanoTime();
        if (compensated) {
            parkCompensated(t, leafUs * 1000L, startNs);
        } else {
            SimulatedLeaf.park(leafUs);
        }
        final long endNs = System.nanoTime();
        if (t.leaves == 0) {
            t.firstStartNs = startNs;
        }
        t.parkedNs += endNs - startNs;
        t.leaves++;
        t.lastEndNs = endNs; // volatile: publishes the fields above to the harness thread
    }

    /** Parks until {@code targetNs} minus the expected lateness after {@code startNs}; updates the estimate (1/8 weight). */
    private static void parkCompensated(final Timeline t, final long targetNs, final long startNs) {
        final long askNs = targetNs - t.latenessEstimateNs;
        final long deadlineNs = startNs + askNs;
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(remainingNs);
        }
        final long latenessNs = System.nanoTime() - deadlineNs;
        t.latenessEstimateNs = Math.max(0, Math.min(targetNs / 2, t.latenessEstimateNs + (latenessNs - t.latenessEstimateNs) / 8));
    }

    /** The timelines of the current run (threads that parked no leaf in it are left out). */
    static List<Timeline> currentRun() {
        final int g = generation;
        final List<Timeline> list = new ArrayList<>();
        for (final Timeline t : TIMELINES) {
            if (t.lastEndNs != 0 && t.generation == g && t.leaves > 0) {
                list.add(t);
            }
        }
        return list;
    }

    /** One worker thread's leaves in one run. Written by that thread only. */
    static final class Timeline {
        final String threadName;
        int generation = -1;
        long firstStartNs;
        long parkedNs;
        long leaves;
        volatile long lastEndNs;
        /** How late this thread's parks wake, a running mean kept across runs (compensated leaves). */
        long latenessEstimateNs;

        Timeline(final String threadName) {
            this.threadName = threadName;
        }

        void reset(final int g) {
            generation = g;
            firstStartNs = 0;
            parkedNs = 0;
            leaves = 0;
            lastEndNs = 0;
        }
    }
}
