package org.divvy.stealing;

import java.util.Random;

import org.divvy.DivvyException;

/**
 * The pause after a failed remote steal: exponential from a minimum to a cap, with "equal jitter"
 * (half fixed, half uniform), so idle nodes neither flood their peers nor fall into step with each
 * other. A success resets it. While the node is in deep idle the cap is the larger deep cap (an idle
 * cluster then exchanges a few requests a second instead of ~60 per node); leaving deep idle resets it.
 * Pure: the random source is given, the clock is the caller's.
 */
final class StealBackoff {
    private final long minNs;
    private final long maxNs;
    private final long deepMaxNs;
    private final Random random;
    private long currentNs;
    private boolean deepIdle;

    StealBackoff(final long minNs, final long maxNs, final long deepMaxNs, final Random random) {
        if (minNs < 1 || maxNs < minNs || deepMaxNs < maxNs) {
            throw new DivvyException("steal backoff minNs=" + minNs + ", maxNs=" + maxNs + ", deepMaxNs=" + deepMaxNs +
                ", must be 1 <= minNs <= maxNs <= deepMaxNs");
        }
        this.minNs = minNs;
        this.maxNs = maxNs;
        this.deepMaxNs = deepMaxNs;
        this.random = random;
    }

    /**
     * The pause after one more failure, in [current/2, current], current doubling from min up to the cap
     * (max, or deep max in deep idle).
     */
    long nextNs() {
        final long capNs = deepIdle ? deepMaxNs : maxNs;
        currentNs = currentNs == 0 ? minNs : Math.min(capNs, currentNs * 2);
        final long half = currentNs / 2;
        return currentNs - half + (half == 0 ? 0 : (long)(random.nextDouble() * half));
    }

    /** After a success: the next failure pauses for the minimum again. */
    void reset() {
        currentNs = 0;
    }

    /** Enters or leaves deep idle; leaving resets, since the node has something to do again. */
    void deepIdle(final boolean deep) {
        if (deepIdle && !deep) {
            reset();
        }
        deepIdle = deep;
    }

    boolean isDeepIdle() {
        return deepIdle;
    }
}
