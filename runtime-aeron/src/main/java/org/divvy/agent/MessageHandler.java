package org.divvy.agent;

import org.agrona.DirectBuffer;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.transport.FrameHandler;

/**
 * What a mechanism registers for one message type: called on the agent thread with a frame whose
 * header and body were checked (the registered flyweight can read it without further bounds checks) and
 * whose sender passed the membership cut rule unless the type was registered for any sender.
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * Frames longer than this (64 KiB) come in a buffer of their own, which the handler may keep after the call
     * (see {@link FrameHandler#OWN_BUFFER_MIN_BYTES}); for mechanisms outside this module, which cannot see the transport.
     */
    int OWN_BUFFER_MIN_BYTES = FrameHandler.OWN_BUFFER_MIN_BYTES;

    /**
     * Takes a reference to a frame's own buffer (longer than {@link #OWN_BUFFER_MIN_BYTES}) that the handler keeps
     * after the call; give it back once with {@link #releaseKept}. Nothing for a buffer that owns no memory of its own.
     */
    static DirectBuffer retainKept(final DirectBuffer frameBuffer) {
        return OffHeapFrame.retainIfOffHeap(frameBuffer);
    }

    /** Gives back the reference {@link #retainKept} took (null: nothing). */
    static void releaseKept(final DirectBuffer frameBuffer) {
        OffHeapFrame.releaseIfOffHeap(frameBuffer);
    }

    /**
     * @param senderId the header's sender id.
     * @param buffer   holds the frame only for the duration of the call: decode or copy what is needed; a frame
     *                 longer than {@link #OWN_BUFFER_MIN_BYTES} is the buffer's own, which the handler may keep by
     *                 taking a reference ({@link #retainKept}).
     * @return work done for the computation (a job given or adopted, a result applied, a member
     * changed): more than 0 keeps the node out of deep idle; 0 for housekeeping (a heartbeat, a steal
     * that found nothing).
     */
    int onMessage(int senderId, DirectBuffer buffer, int offset, int length);
}
