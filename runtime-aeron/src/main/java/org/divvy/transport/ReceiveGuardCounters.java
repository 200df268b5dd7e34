package org.divvy.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the embedded driver's {@link ReceiveGuard} refused, one named counter per reason, and the streams
 * (Aeron images) it lets the node receive right now. Aeron-level datagrams: they are refused before the
 * driver creates an image or hands a frame to the node, so {@code protocol.FrameCounters} never sees them.
 * Written only by the thread that steps the driver (the network agent); readable from any thread.
 */
public final class ReceiveGuardCounters {
    /** SETUP frames for a stream id other than Divvy's: nobody here subscribes to them. */
    public final AtomicLong setupOtherStream = new AtomicLong();
    /** SETUP frames whose term length is not a power of two from 64 KiB to this node's {@code termLengthBytes}. */
    public final AtomicLong setupTermLength = new AtomicLong();
    /** SETUP frames whose MTU is not this node's driver's MTU (Aeron's {@code aeron.mtu.length}, the same on every node). */
    public final AtomicLong setupMtu = new AtomicLong();
    /** SETUP frames whose term offset or term ids no Aeron publication sends (misaligned, out of the term, before the initial term). */
    public final AtomicLong setupMalformed = new AtomicLong();
    /** SETUP frames for a new stream while the node already receives {@code maxInboundStreams} streams. */
    public final AtomicLong setupStreamLimit = new AtomicLong();
    /** DATA and PAD frames for a stream id other than Divvy's. */
    public final AtomicLong dataOtherStream = new AtomicLong();
    /**
     * DATA and PAD frames of a session with no stream here, beyond the few a second that may ask their sender
     * for a SETUP (how a stream lost in a pause comes back); each one asked for would cost an answer and a
     * pending entry in the driver.
     */
    public final AtomicLong dataUnknownSession = new AtomicLong();
    /** Streams (images) the node receives right now. */
    public final AtomicLong streams = new AtomicLong();
    /** The most streams it received at once. */
    public final AtomicLong mostStreams = new AtomicLong();

    static void count(final AtomicLong counter) {
        counter.lazySet(counter.get() + 1);
    }

    /** Every SETUP refused, for any reason. */
    public long setupsRefused() {
        return setupOtherStream.get() + setupTermLength.get() + setupMtu.get() + setupMalformed.get() +
            setupStreamLimit.get();
    }

    /** Every DATA or PAD frame dropped, for any reason. */
    public long dataDropped() {
        return dataOtherStream.get() + dataUnknownSession.get();
    }

    @Override
    public String toString() {
        return "ReceiveGuardCounters{setupOtherStream=" + setupOtherStream + ", setupTermLength=" + setupTermLength +
            ", setupMtu=" + setupMtu + ", setupMalformed=" + setupMalformed + ", setupStreamLimit=" + setupStreamLimit +
            ", dataOtherStream=" + dataOtherStream + ", dataUnknownSession=" + dataUnknownSession + ", streams=" +
            streams + ", mostStreams=" + mostStreams + "}";
    }
}
