package org.divvy.protocol;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Why received frames were dropped, one named counter per reason. Written only by the thread that
 * owns the {@link FrameValidator} (the network agent); readable from any thread.
 */
public final class FrameCounters {
    /** Shorter than the header, or shorter than the per-type minimum, or a frame length above the bytes received. */
    public final AtomicLong truncated = new AtomicLong();
    /** A version other than {@link HeaderFlyweight#CURRENT_VERSION}. */
    public final AtomicLong badVersion = new AtomicLong();
    /** A type code this version does not know. */
    public final AtomicLong unknownType = new AtomicLong();
    /** A frame-length field below the header length or different from the bytes received. */
    public final AtomicLong badLength = new AtomicLong();
    /** Fixed fields fine, but a variable-length field or count does not fit the frame. */
    public final AtomicLong malformed = new AtomicLong();
    /** Well-formed frames from a peer that is suspected or dead (thesis §3.1: its traffic is cut). */
    public final AtomicLong fromDeadPeer = new AtomicLong();
    /** Well-formed frames from a sender that is not a member (for example an id the registry never assigned). */
    public final AtomicLong fromUnknownSender = new AtomicLong();
    /** Frames whose handler threw (a bug: reported to the error handler too). */
    public final AtomicLong handlerFailed = new AtomicLong();
    /** Chunks of a broken stream (gap, wrong total) or beyond the reassembly memory bound. */
    public final AtomicLong badChunk = new AtomicLong();

    /** Single-writer increment: only the owning thread calls it, so a plain read-add-store is safe. */
    static void increment(final AtomicLong counter) {
        counter.lazySet(counter.get() + 1);
    }

    /** Counts one more drop for {@code counter}; for the owning thread only. */
    public static void count(final AtomicLong counter) {
        increment(counter);
    }

    /** Every frame dropped for any reason. */
    public long totalDropped() {
        return truncated.get() + badVersion.get() + unknownType.get() + badLength.get() + malformed.get() +
            fromDeadPeer.get() + fromUnknownSender.get() + badChunk.get() + handlerFailed.get();
    }

    @Override
    public String toString() {
        return "FrameCounters{truncated=" + truncated + ", badVersion=" + badVersion + ", unknownType=" + unknownType +
            ", badLength=" + badLength + ", malformed=" + malformed + ", fromDeadPeer=" + fromDeadPeer +
            ", fromUnknownSender=" + fromUnknownSender + ", badChunk=" + badChunk + ", handlerFailed=" + handlerFailed + "}";
    }
}
