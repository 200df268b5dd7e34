package org.divvy.transport;

import java.util.ArrayDeque;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.bulk.SlicedCopy;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.security.FrameAuthenticator;

/**
 * The way from a node to its own endpoint, without Aeron: the node that hosts the registry is its own member
 * (its membership client's heartbeats go to the registry, the registry's member lists and heartbeats to every
 * member), and a publication to itself cost its embedded driver one more socket to read on every duty cycle
 * (~0.45 µs of an idle cycle, measured: perf/README.md). A frame sent here is signed as a {@link Link} signs it
 * (the same {@link FrameAuthenticator.Signer}, key choice and sequence numbers), kept with its trailer, and
 * handed to the transport's receive path at the start of the next {@link AeronTransport#poll}: checked by the
 * same authenticator and validator, counted and dispatched as a frame from the wire. So a frame to itself is
 * never delivered inside the send that made it (handlers never re-enter), frames leave in the order sent (a
 * stricter order than a link's, whose control frames may overtake bulk data), and a frame whose key is not
 * the receiver's any more when it is delivered is refused as it would be after a trip through Aeron.
 *
 * <p>What differs from a link: nothing is chunked or reassembled (a frame above
 * {@link FrameHandler#OWN_BUFFER_MIN_BYTES} is copied once, in slices, into an off-heap frame of its own, with its
 * trailer in the frame's tail, so the JVM zeroes nothing for it and its handler may keep it by taking a reference;
 * the link releases it once delivered),
 * nothing is ever lost or re-ordered, and there is no publication to connect. Frames waiting for the next poll
 * are bounded like a link's queues ({@link Link#CONTROL_QUEUE_BYTES} plus {@code maxBulkBytes}); beyond that a
 * send is refused and counted in {@link TrafficCounters#droppedQueueFull}.
 *
 * <p>Owned by the network agent thread.
 */
final class SelfLink {
    /** Bytes of a record's length prefix in the frame queue. */
    private static final int LENGTH_PREFIX = Integer.BYTES;
    /** A record whose message waits in {@link #large}: the queue keeps their order with the small ones. */
    private static final int LARGE_RECORD = -1;
    private static final int INITIAL_QUEUE_BYTES = 4096;

    /** Receives each message (frame and trailer) as the subscription's fragments are received. */
    interface Receiver {
        /**
         * One message, frame and trailer, at {@code offset}; {@code ownFrame}: null, or the frame alone in a buffer of
         * its own (an {@link OffHeapFrame} of exactly the frame's length), which may be handed to a handler to keep.
         */
        void onMessage(DirectBuffer buffer, int offset, int length, DirectBuffer ownFrame);
    }

    private final int linkId;
    private final TrafficCounters traffic;
    private final FrameAuthenticator.Signer signer;
    private final long maxPendingBytes;
    private final OffHeapMemory memory;
    private final UnsafeBuffer trailer = new UnsafeBuffer(new byte[FrameAuthenticator.TRAILER_LENGTH]);
    /** Frames sent since the last delivery: length-prefixed records of frame and trailer. */
    private UnsafeBuffer pending = new UnsafeBuffer(new byte[INITIAL_QUEUE_BYTES]);
    /** The records being delivered; swapped with {@link #pending}, so what handlers send now waits for the next poll. */
    private UnsafeBuffer delivering = new UnsafeBuffer(new byte[INITIAL_QUEUE_BYTES]);
    private int pendingEnd;
    private final ArrayDeque<OffHeapFrame> large = new ArrayDeque<>();
    private final ArrayDeque<OffHeapFrame> largeDelivering = new ArrayDeque<>();
    private long pendingBytes;
    private int pendingFrames;

    SelfLink(final int linkId, final String endpoint, final long maxBulkBytes, final TrafficCounters traffic,
        final FrameAuthenticator authenticator, final OffHeapMemory memory) {
        this.memory = memory;
        this.linkId = linkId;
        this.traffic = traffic;
        this.signer = authenticator.signerFor(endpoint);
        this.maxPendingBytes = Link.CONTROL_QUEUE_BYTES + maxBulkBytes;
    }

    int linkId() {
        return linkId;
    }

    /** Whether frames wait for the next poll. */
    boolean hasPending() {
        return pendingFrames > 0;
    }

    /**
     * Signs the frame and keeps it for the next poll.
     *
     * @return false if the frames waiting already take the bound (counted in {@link TrafficCounters#droppedQueueFull}).
     */
    boolean send(final DirectBuffer buffer, final int offset, final int length) {
        final int message = length + FrameAuthenticator.TRAILER_LENGTH;
        if (pendingBytes + message > maxPendingBytes) {
            TrafficCounters.add(traffic.droppedQueueFull, 1);
            return false;
        }
        final int type = buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
        signer.sign(type, buffer, offset, length, null, 0, 0, trailer);
        if (length > FrameHandler.OWN_BUFFER_MIN_BYTES) {
            final OffHeapFrame own;
            try {
                own = memory.allocate(length, FrameAuthenticator.TRAILER_LENGTH);
            } catch (final OutOfMemoryError noMemory) {
                TrafficCounters.add(traffic.droppedQueueFull, 1); // refused, as a link refuses what it has no room for
                return false;
            }
            final UnsafeBuffer span = own.spanWithTail();
            SlicedCopy.copy(span, 0, buffer, offset, length);
            span.putBytes(length, trailer, 0, FrameAuthenticator.TRAILER_LENGTH);
            large.addLast(own);
            ensureRoom(LENGTH_PREFIX);
            pending.putInt(pendingEnd, LARGE_RECORD);
            pendingEnd += LENGTH_PREFIX;
        } else {
            ensureRoom(LENGTH_PREFIX + message);
            pending.putInt(pendingEnd, message);
            pending.putBytes(pendingEnd + LENGTH_PREFIX, buffer, offset, length);
            pending.putBytes(pendingEnd + LENGTH_PREFIX + length, trailer, 0, FrameAuthenticator.TRAILER_LENGTH);
            pendingEnd += LENGTH_PREFIX + message;
        }
        signer.sent();
        pendingBytes += message;
        pendingFrames++;
        traffic.onSent(type, length);
        return true;
    }

    private void ensureRoom(final int bytes) {
        if (pendingEnd + bytes > pending.capacity()) {
            // grows with the frames a cycle sends to itself (a member list per membership change), rarely
            final byte[] grown = new byte[Math.max(2 * pending.capacity(), pendingEnd + bytes)];
            pending.getBytes(0, grown, 0, pendingEnd);
            pending.wrap(grown);
        }
    }

    /**
     * Hands every frame sent before this call to {@code receiver}, in the order sent; frames sent meanwhile (by the
     * handlers it calls) wait for the next call. Returns how many were delivered.
     */
    int deliver(final Receiver receiver) {
        if (pendingFrames == 0) {
            return 0;
        }
        final UnsafeBuffer records = pending;
        final int end = pendingEnd;
        final int frames = pendingFrames;
        pending = delivering;
        delivering = records;
        pendingEnd = 0;
        pendingBytes = 0;
        pendingFrames = 0;
        largeDelivering.addAll(large);
        large.clear();
        try {
            deliverRecords(records, end, receiver);
        } finally {
            // a handler that threw an Error left the rest undelivered: dropped, their frames released
            for (final OffHeapFrame left : largeDelivering) {
                left.release();
            }
            largeDelivering.clear();
        }
        return frames;
    }

    private void deliverRecords(final UnsafeBuffer records, final int end, final Receiver receiver) {
        int at = 0;
        while (at < end) {
            final int length = records.getInt(at);
            at += LENGTH_PREFIX;
            if (length == LARGE_RECORD) {
                final OffHeapFrame own = largeDelivering.pollFirst();
                try {
                    receiver.onMessage(own.spanWithTail(), 0, own.capacity() + FrameAuthenticator.TRAILER_LENGTH, own);
                } finally {
                    own.release(); // a handler that keeps it took a reference of its own
                }
            } else {
                receiver.onMessage(records, at, length, null);
                at += length;
            }
        }
    }

    /** Drops what waits (this node leaves); a later send starts a new stream. Returns how many were dropped. */
    int close() {
        final int dropped = pendingFrames;
        if (dropped > 0) {
            TrafficCounters.add(traffic.droppedPeerGone, dropped);
        }
        pendingEnd = 0;
        pendingBytes = 0;
        pendingFrames = 0;
        for (final OffHeapFrame frame : large) {
            frame.release();
        }
        large.clear();
        signer.restart();
        return dropped;
    }
}
