package org.divvy.agent;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.transport.FrameHandler;
import org.divvy.transport.Transport;

/**
 * The agent thread's {@link FrameSender} over a {@link Transport}: one frame buffer, grown on demand
 * up to the transport's largest message (most frames are tiny and a node may have many peers, so it
 * starts small), links to members looked up once per node id, and the header stamped with this node's
 * id and epoch.
 *
 * <p>Owned by the network agent thread.
 */
public final class Outbound implements FrameSender {
    /** First capacity of the frame buffer (64 KiB); it doubles as larger frames come. */
    static final int INITIAL_FRAME_BYTES = 64 * 1024;

    private final Transport transport;
    private final MemberDirectory members;
    private final int maxFrameBytes;
    private final Int2IntHashMap linkByNodeId = new Int2IntHashMap(-1);
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final UnsafeBuffer frame;

    public Outbound(final Transport transport, final MemberDirectory members, final int maxFrameBytes) {
        this.transport = transport;
        this.members = members;
        this.maxFrameBytes = maxFrameBytes;
        this.frame = new UnsafeBuffer(new byte[Math.min(maxFrameBytes, INITIAL_FRAME_BYTES)]);
    }

    @Override
    public MutableDirectBuffer frameBuffer(final long minCapacity) {
        if (minCapacity > frame.capacity()) {
            if (minCapacity > maxFrameBytes) {
                throw new DivvyException("a frame of " + minCapacity + " bytes is larger than the " + maxFrameBytes +
                    " bytes the transport takes (maxMessageBytes)");
            }
            frame.wrap(new byte[(int)Math.min(maxFrameBytes, Math.max(2L * frame.capacity(), minCapacity))]);
        }
        return frame;
    }

    /**
     * Off the heap above {@link FrameHandler#OWN_BUFFER_MIN_BYTES} when the transport has off-heap memory (the Aeron
     * one): see {@link FrameSender#ownFrame}. A small frame is a heap array (a malloc per root of a few bytes would
     * buy nothing).
     */
    @Override
    public MutableDirectBuffer ownFrame(final int length) {
        final OffHeapMemory memory = transport.offHeapMemory();
        return memory == null || length <= FrameHandler.OWN_BUFFER_MIN_BYTES ? new UnsafeBuffer(new byte[length])
            : memory.allocate(length);
    }

    @Override
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    @Override
    public boolean sendTo(final int nodeId, final int frameLength) {
        final int link = stampFor(nodeId, frame, frameLength);
        return link >= 0 && transport.send(link, frame, 0, frameLength);
    }

    @Override
    public boolean sendOwnedTo(final int nodeId, final MutableDirectBuffer ownFrame, final int frameLength) {
        final int link = stampFor(nodeId, ownFrame, frameLength);
        return link >= 0 && transport.sendOwned(link, ownFrame, frameLength);
    }

    @Override
    public long queuedBulkBytesTo(final int nodeId) {
        final int link = linkByNodeId.get(nodeId);
        return link < 0 ? 0 : transport.queuedBulkBytes(link);
    }

    /** Stamps the header for {@code nodeId} and returns its link, or -1 if it is not an alive member. */
    private int stampFor(final int nodeId, final MutableDirectBuffer buffer, final int frameLength) {
        final String endpoint = members.aliveEndpoint(nodeId);
        if (endpoint == null) {
            return -1;
        }
        header.wrap(buffer, 0, frameLength);
        header.senderId(members.selfId()).epoch(members.epoch());
        int link = linkByNodeId.get(nodeId);
        if (link < 0) {
            link = transport.linkTo(endpoint); // a node id's endpoint never changes
            linkByNodeId.put(nodeId, link);
        }
        return link;
    }

    @Override
    public int broadcast(final int frameLength) {
        int sent = 0;
        for (final int nodeId : members.aliveOthers()) {
            if (sendTo(nodeId, frameLength)) {
                sent++;
            }
        }
        return sent;
    }

    @Override
    public boolean sendToEndpoint(final String endpoint, final int frameLength) {
        return transport.send(transport.linkTo(endpoint), frame, 0, frameLength);
    }

    @Override
    public boolean sendOwnedToEndpoint(final String endpoint, final MutableDirectBuffer ownFrame, final int frameLength) {
        return transport.sendOwned(transport.linkTo(endpoint), ownFrame, frameLength);
    }

    @Override
    public void cut(final String endpoint) {
        transport.closeLinkTo(endpoint);
    }

    @Override
    public boolean isIdle() {
        return !transport.hasQueued();
    }
}
