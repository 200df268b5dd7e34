package org.divvy.testing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;

/**
 * The agent's sender in tests that step a mechanism without a network: it keeps a copy of every frame sent to a member
 * (owned frames too) and of every broadcast, and refuses sends to the members in {@link #refusing}, as a full queue
 * does (nothing recorded for those). Endpoints are not reached. The test's thread only.
 */
public final class RecordingFrameSender implements FrameSender {
    /** The frame mechanisms encode into. */
    public final UnsafeBuffer frame = new UnsafeBuffer(new byte[64 * 1024]);
    /** Members each taken frame was sent to, in order, and a copy of each frame. */
    public final List<Integer> sentTo = new ArrayList<>();
    public final List<byte[]> sent = new ArrayList<>();
    /** A copy of each broadcast frame. */
    public final List<byte[]> broadcasts = new ArrayList<>();
    /** Members whose sends are refused. */
    public final Set<Integer> refusing = new HashSet<>();
    /** The largest frame mechanisms may build (owned frames above the frame buffer's 64 KiB included). */
    public int maxFrameBytes = frame.capacity();
    /** Where {@link #ownFrame} allocates, as the transport does (a frame taken is then released); null: the heap. */
    public OffHeapMemory offHeap;

    @Override
    public MutableDirectBuffer ownFrame(final int length) {
        return offHeap == null ? FrameSender.super.ownFrame(length) : offHeap.allocate(length);
    }

    @Override
    public MutableDirectBuffer frameBuffer(final long minCapacity) {
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
        if (refusing.contains(nodeId)) {
            return false;
        }
        final byte[] copy = new byte[frameLength];
        buffer.getBytes(0, copy);
        sentTo.add(nodeId);
        sent.add(copy);
        return true;
    }

    /** Recorded; one member took it. */
    @Override
    public int broadcast(final int frameLength) {
        final byte[] copy = new byte[frameLength];
        frame.getBytes(0, copy);
        broadcasts.add(copy);
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
}
