package org.divvy.security;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Received frames the {@link FrameAuthenticator} dropped, per reason. Written by the agent thread only
 * (plain read-add-store), read by any thread.
 */
public final class AuthenticationCounters {
    /** Too short to carry a header and a trailer. */
    public final AtomicLong unauthenticated = new AtomicLong();
    /** A key this node does not hold: another run's, or the join key on a frame that is not part of a join. */
    public final AtomicLong wrongKey = new AtomicLong();
    /** A sequence number already received from that sender, or older than its window. */
    public final AtomicLong replayed = new AtomicLong();
    /** A tag that does not match the frame: forged or corrupted. */
    public final AtomicLong badTag = new AtomicLong();

    /**
     * Messages that never arrived although later ones of their stream did (sequence numbers skipped): not a
     * drop, a loss below Divvy (an Aeron image that timed out and started again later in its stream).
     */
    public final AtomicLong lostInTransit = new AtomicLong();

    static void count(final AtomicLong counter) {
        counter.lazySet(counter.get() + 1);
    }

    /** Every frame dropped for any reason. */
    public long totalDropped() {
        return unauthenticated.get() + wrongKey.get() + replayed.get() + badTag.get();
    }

    @Override
    public String toString() {
        return "AuthenticationCounters{unauthenticated=" + unauthenticated + ", wrongKey=" + wrongKey + ", replayed=" +
            replayed + ", badTag=" + badTag + ", lostInTransit=" + lostInTransit + "}";
    }
}
