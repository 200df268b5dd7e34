package org.divvy.transport;

import org.agrona.DirectBuffer;

/** Receives whole frames with a valid header (chunked messages already reassembled); on the agent thread. */
@FunctionalInterface
public interface FrameHandler {
    /**
     * @param type   the header's type code; whether it is a registered type is the handler's check.
     * @param buffer holds the frame only for the duration of the call.
     */
    void onFrame(int type, DirectBuffer buffer, int offset, int length);
}
