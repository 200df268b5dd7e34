package org.divvy.agent;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.OffHeapFrame;

/**
 * How mechanisms send, on the agent thread: encode a frame into {@link #frameBuffer} at offset 0 with
 * the message's flyweight, then send it. The sender stamps the header's sender id and membership epoch.
 * No call re-enters the agent or any mechanism, and none blocks: a frame is handed to the transport,
 * which queues it (bounded) while the peer is unconnected or back pressured.
 */
public interface FrameSender {
    /**
     * The buffer to encode the next frame into, at least {@code minCapacity} bytes; valid until the next
     * call of this method.
     *
     * @throws org.divvy.DivvyException when {@code minCapacity} exceeds the largest message the transport
     *                                   takes, naming both sizes.
     */
    MutableDirectBuffer frameBuffer(long minCapacity);

    /** The largest frame the transport takes. */
    int maxFrameBytes();

    /** Sends the frame buffer's first {@code frameLength} bytes to member {@code nodeId}; false if not sent (not alive, queue full). */
    boolean sendTo(int nodeId, int frameLength);

    /**
     * Sends a frame built in a buffer of its own (header included, from offset 0; large frames encoded off
     * the agent thread) to member {@code nodeId}, its header stamped as {@link #sendTo} does. A frame that
     * must wait is kept, not copied: on true the buffer is the transport's, on false still the caller's.
     */
    default boolean sendOwnedTo(final int nodeId, final MutableDirectBuffer frame, final int frameLength) {
        frameBuffer(frameLength).putBytes(0, frame, 0, frameLength); // a sender without owned frames copies
        if (sendTo(nodeId, frameLength)) {
            OffHeapFrame.releaseIfOffHeap(frame); // handed over, and not kept
            return true;
        }
        return false;
    }

    /**
     * A buffer of its own for a large frame built off the agent thread and handed over with {@code sendOwned…}: an
     * {@link OffHeapFrame} (never zeroed by the JVM) from a transport that has off-heap memory, else a heap array.
     * One who does not hand it over gives it back ({@link OffHeapFrame#releaseIfOffHeap}). Any thread.
     *
     * @throws OutOfMemoryError if there is no memory for it.
     */
    default MutableDirectBuffer ownFrame(final int length) {
        return new UnsafeBuffer(new byte[length]);
    }

    /**
     * Bytes of large messages waiting to go to member {@code nodeId} (its publication has not taken them
     * yet): a producer of more large messages for it holds back while this is not 0.
     */
    default long queuedBulkBytesTo(final int nodeId) {
        return 0;
    }

    /** Sends the frame to every alive member but this node; returns how many took it. */
    int broadcast(int frameLength);

    /** Sends the frame, header as written, to {@code endpoint}: membership's own traffic, before and outside member ids. */
    boolean sendToEndpoint(String endpoint, int frameLength);

    /**
     * As {@link #sendToEndpoint}, for a frame built in a buffer of its own (from offset 0): a frame that must wait
     * is kept, not copied; on true the buffer is the transport's, on false still the caller's.
     */
    default boolean sendOwnedToEndpoint(final String endpoint, final MutableDirectBuffer frame, final int frameLength) {
        frameBuffer(frameLength).putBytes(0, frame, 0, frameLength); // a sender without owned frames copies
        if (sendToEndpoint(endpoint, frameLength)) {
            OffHeapFrame.releaseIfOffHeap(frame); // handed over, and not kept
            return true;
        }
        return false;
    }

    /** Closes the way to {@code endpoint} (its node died or left) and drops what is queued for it. */
    void cut(String endpoint);

    /** Whether nothing waits in any outbound queue (for a final broadcast to know it left). */
    boolean isIdle();
}
