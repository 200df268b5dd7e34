package org.divvy.transport;

import org.agrona.DirectBuffer;

/** Receives whole frames with a valid header (chunked messages already reassembled); on the agent thread. */
@FunctionalInterface
public interface FrameHandler {
    /**
     * Frames longer than this (64 KiB) come in a buffer of their own, from offset 0, that the handler may
     * keep after the call (to decode it off the agent thread); shorter ones only during the call.
     */
    int OWN_BUFFER_MIN_BYTES = 64 * 1024;

    /**
     * @param type   the header's type code; whether it is a registered type is the handler's check.
     * @param buffer holds the frame only for the duration of the call, unless the frame is longer than
     *               {@link #OWN_BUFFER_MIN_BYTES}: then it is the frame's own, from offset 0.
     */
    void onFrame(int type, DirectBuffer buffer, int offset, int length);
}
