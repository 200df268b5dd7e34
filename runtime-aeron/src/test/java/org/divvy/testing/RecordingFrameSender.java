package org.divvy.testing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;

/**
 * The agent's sender in tests that step a mechanism without a network: it keeps a copy of every frame offered to a
 * member (owned frames too), of every frame a member took, and of every broadcast; it refuses sends to the members in
 * {@link #refusing}, or to all with {@link #refuseAll}, as a full queue does. Endpoints are not reached. The test's
 * thread only.
 */
public final class RecordingFrameSender implements FrameSender {
    /** Members each taken frame was sent to, in order, and a copy of each frame. */
    public final List<Integer> sentTo = new ArrayList<>();
    public final List<byte[]> sent = new ArrayList<>();
    /** Members each frame was offered to, taken or refused, in order, and a copy of each frame. */
    public final List<Integer> offeredTo = new ArrayList<>();
    public final List<byte[]> offered = new ArrayList<>();
    /** A copy of each broadcast frame. */
    public final List<byte[]> broadcasts = new ArrayList<>();
    /** Members whose sends are refused. */
    public final Set<Integer> refusing = new HashSet<>();
    /** Whether every send is refused (a full queue towards every member). */
    public boolean refuseAll;
    /** What {@link #queuedBulkBytesTo} says for every member. */
    public long queuedBulkBytes;
    /** The largest frame mechanisms may build; read by a mechanism when it is made. */
    public int maxFrameBytes = 64 * 1024;
    /** Where {@link #ownFrame} allocates, as the transport does (a frame taken is then released); null: the heap. */
    public OffHeapMemory offHeap;
    /** The frame mechanisms encode into, grown to what they ask for. */
    private final ExpandableArrayBuffer frame = new ExpandableArrayBuffer(64 * 1024);

    /** Sets {@link #maxFrameBytes}; returns this sender. */
    public RecordingFrameSender withMaxFrameBytes(final int bytes) {
        maxFrameBytes = bytes;
        return this;
    }

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
        return record(nodeId, frame, frameLength);
    }

    @Override
    public boolean sendOwnedTo(final int nodeId, final MutableDirectBuffer ownFrame, final int frameLength) {
        if (!record(nodeId, ownFrame, frameLength)) {
            return false; // still the caller's
        }
        OffHeapFrame.releaseIfOffHeap(ownFrame); // the transport's now, and sent at once
        return true;
    }

    private boolean record(final int nodeId, final MutableDirectBuffer buffer, final int frameLength) {
        final byte[] copy = copy(buffer, frameLength);
        offeredTo.add(nodeId);
        offered.add(copy);
        if (refuseAll || refusing.contains(nodeId)) {
            return false;
        }
        sentTo.add(nodeId);
        sent.add(copy);
        return true;
    }

    @Override
    public long queuedBulkBytesTo(final int nodeId) {
        return queuedBulkBytes;
    }

    /** Recorded; one member took it. */
    @Override
    public int broadcast(final int frameLength) {
        broadcasts.add(copy(frame, frameLength));
        return 1;
    }

    @Override
    public boolean sendToEndpoint(final String endpoint, final int frameLength) {
        return true;
    }

    @Override
    public void cut(final String endpoint) {
    }

    @Override
    public boolean isIdle() {
        return true;
    }

    private static byte[] copy(final MutableDirectBuffer buffer, final int frameLength) {
        final byte[] copy = new byte[frameLength];
        buffer.getBytes(0, copy);
        return copy;
    }
}
