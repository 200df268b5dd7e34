package org.divvy.transport;

import org.agrona.DirectBuffer;

/** Receives whole frames with a valid header (chunked messages already reassembled); on the agent thread. */
@FunctionalInterface
public interface FrameHandler {
    /**
     * Frames longer than this (64 KiB) come in a buffer of their own, from offset 0, that the handler may
     * keep after the call (to decode it off the agent thread); shorter ones only during the call. From the
     * {@code AeronTransport} such a buffer is an {@link org.divvy.bulk.OffHeapFrame} the transport releases when
     * the call returns: a handler that keeps it takes a reference of its own
     * ({@link org.divvy.bulk.OffHeapFrame#retainIfOffHeap}) and gives it back once, when it is done with it
     * ({@link org.divvy.bulk.OffHeapFrame#releaseIfOffHeap}).
     */
    int OWN_BUFFER_MIN_BYTES = 64 * 1024;

    /**
     * @param type   the header's type code; whether it is a registered type is the handler's check.
     * @param buffer holds the frame only for the duration of the call, unless the frame is longer than
     *               {@link #OWN_BUFFER_MIN_BYTES}: then it is the frame's own, from offset 0, kept by taking a
     *               reference to it.
     */
    void onFrame(int type, DirectBuffer buffer, int offset, int length);
}
