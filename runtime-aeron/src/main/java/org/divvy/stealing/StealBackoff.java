package org.divvy.stealing;

import java.util.Random;

import org.divvy.DivvyException;

/**
 * The pause after a failed remote steal: exponential from a minimum to a cap, with "equal jitter"
 * (half fixed, half uniform), so idle nodes neither flood their peers nor fall into step with each
 * other. A success resets it. Pure: the random source is given, the clock is the caller's.
 */
final class StealBackoff {
    private final long minNs;
    private final long maxNs;
    private final Random random;
    private long currentNs;

    StealBackoff(final long minNs, final long maxNs, final Random random) {
        if (minNs < 1 || maxNs < minNs) {
            throw new DivvyException("steal backoff minNs=" + minNs + ", maxNs=" + maxNs + ", must be 1 <= minNs <= maxNs");
        }
        this.minNs = minNs;
        this.maxNs = maxNs;
        this.random = random;
    }

    /** The pause after one more failure, in [current/2, current], current doubling from min up to max. */
    long nextNs() {
        currentNs = currentNs == 0 ? minNs : Math.min(maxNs, currentNs * 2);
        final long half = currentNs / 2;
        return currentNs - half + (half == 0 ? 0 : (long)(random.nextDouble() * half));
    }

    /** After a success: the next failure pauses for the minimum again. */
    void reset() {
        currentNs = 0;
    }
}
