package org.divvy.sharing;

import java.util.ArrayList;
import java.util.List;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;

/**
 * The agent's sender in the shared-data tests that step a mechanism without a network: it keeps a copy of every frame
 * sent to a member (refused ones too, with {@link #refuse}) and of every broadcast, and says what the test sets about
 * the transport (the largest frame, bytes queued towards a node). Endpoints are not reached.
 */
final class RecordingFrameSender implements FrameSender {
    /** Members each frame was sent to (or refused to), in order, and a copy of each frame. */
    final List<Integer> sentTo = new ArrayList<>();
    final List<byte[]> sent = new ArrayList<>();
    /** A copy of each broadcast frame. */
    final List<byte[]> broadcasts = new ArrayList<>();
    /** Whether {@link #sendTo} refuses (a full queue); the frame is still recorded. */
    boolean refuse;
    /** What {@link #queuedBulkBytesTo} says for every node. */
    long queuedBulkBytes;
    /** The largest frame; read by a mechanism when it is made. */
    int maxFrameBytes = 1 << 30;
    /** Where {@link #ownFrame} allocates, as the transport does; null: on the heap. */
    OffHeapMemory offHeap;
    private final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(256);

    @Override
    public MutableDirectBuffer ownFrame(final int length) {
        return offHeap == null ? FrameSender.super.ownFrame(length) : offHeap.allocate(length);
    }

    @Override
    public MutableDirectBuffer frameBuffer(final long minCapacity) {
        frame.checkLimit((int)minCapacity);
        return frame;
    }

    @Override
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    @Override
    public boolean sendTo(final int nodeId, final int frameLength) {
        sentTo.add(nodeId);
        sent.add(copy(frameLength));
        return !refuse;
    }

    /** As {@link #sendTo}, but the frame recorded is the one handed over (built off the agent thread). */
    @Override
    public boolean sendOwnedTo(final int nodeId, final MutableDirectBuffer ownFrame, final int frameLength) {
        sentTo.add(nodeId);
        final byte[] copy = new byte[frameLength];
        ownFrame.getBytes(0, copy);
        sent.add(copy);
        if (refuse) {
            return false; // still the caller's
        }
        OffHeapFrame.releaseIfOffHeap(ownFrame); // the transport's now, and sent at once
        return true;
    }

    @Override
    public long queuedBulkBytesTo(final int nodeId) {
        return queuedBulkBytes;
    }

    /** Recorded; one member took it. */
    @Override
    public int broadcast(final int frameLength) {
        broadcasts.add(copy(frameLength));
        return 1;
    }

    @Override
    public boolean sendToEndpoint(final String endpoint, final int frameLength) {
        return false;
    }

    @Override
    public void cut(final String endpoint) {
    }

    @Override
    public boolean isIdle() {
        return true;
    }

    private byte[] copy(final int frameLength) {
        final byte[] copy = new byte[frameLength];
        frame.getBytes(0, copy);
        return copy;
    }
}
