package org.divvy.transport;

import org.agrona.DirectBuffer;

/** Receives whole, validated frames (chunked messages already reassembled); on the agent thread. */
@FunctionalInterface
public interface FrameHandler {
    /**
     * @param type   the frame's {@link org.divvy.protocol.MessageType}, already validated.
     * @param buffer holds the frame only for the duration of the call.
     */
    void onFrame(int type, DirectBuffer buffer, int offset, int length);
}
