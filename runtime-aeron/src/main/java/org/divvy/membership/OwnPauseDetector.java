package org.divvy.membership;

import org.divvy.DivvyException;

/**
 * Notices that this node itself was stopped (SIGSTOP, a long GC pause, a suspended machine or VM): its
 * duty cycles come at most a deep-idle park apart, so a gap between two of them longer than the threshold
 * means nothing ran here, and nothing was heard either. Membership then restarts its failure detection
 * instead of suspecting everyone it did not hear while it was stopped, and remembers the pause to say so
 * if the others removed this node meanwhile.
 *
 * <p>A pure policy object: time comes in as {@code nowNs}. Owned by the thread that drives it.
 */
final class OwnPauseDetector {
    private final long thresholdNs;
    private boolean started;
    private long lastCycleNs;
    private long lastPauseNs;
    private long lastPauseEndedNs;

    /** @param thresholdNs a gap between duty cycles longer than this is a pause of this node. */
    OwnPauseDetector(final long thresholdNs) {
        if (thresholdNs <= 0) {
            throw new DivvyException("thresholdNs=" + thresholdNs + ", must be > 0");
        }
        this.thresholdNs = thresholdNs;
    }

    /** The pause threshold for a failure detector that accepts {@code acceptablePauseNs}: half of it. */
    static long thresholdFor(final long acceptablePauseNs, final long heartbeatIntervalNs) {
        return Math.max(acceptablePauseNs / 2, heartbeatIntervalNs);
    }

    /** A duty cycle at {@code nowNs}; returns how long this node was paused before it, 0 if it was not. */
    long onCycle(final long nowNs) {
        if (!started) {
            started = true;
            lastCycleNs = nowNs;
            return 0;
        }
        final long gapNs = nowNs - lastCycleNs;
        lastCycleNs = nowNs;
        if (gapNs > thresholdNs) {
            lastPauseNs = gapNs;
            lastPauseEndedNs = nowNs;
            return gapNs;
        }
        return 0;
    }

    /** The last pause if it ended within {@code withinNs} before {@code nowNs}, else 0. */
    long recentPauseNs(final long nowNs, final long withinNs) {
        return lastPauseNs > 0 && nowNs - lastPauseEndedNs <= withinNs ? lastPauseNs : 0;
    }
}
