package org.divvy.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;

/**
 * An in-memory network of {@link Transport}s for tests that step agents with a fake clock: a frame sent
 * is copied into the destination's inbox at once and delivered, header-checked like the real transport,
 * on the destination's next poll. A transport that is {@link Loopback#close() closed} (a crashed node)
 * receives nothing; sends to an endpoint nobody has are dropped. No threads, no time of its own: frames
 * are delivered in the order sent, whenever the test steps their destination.
 */
public final class LoopbackNetwork {
    private final Map<String, Loopback> byEndpoint = new HashMap<>();
    private int nextPort = 1;

    /** A new transport at {@code 127.0.0.1:<next port>}, checking headers into {@code counters}. */
    public Loopback newTransport(final FrameCounters counters) {
        final Loopback transport = new Loopback("127.0.0.1:" + nextPort++, new FrameValidator(counters));
        byEndpoint.put(transport.endpoint, transport);
        return transport;
    }

    /** The transport at {@code endpoint}, or null. */
    public Loopback transportAt(final String endpoint) {
        return byEndpoint.get(endpoint);
    }

    /** One node's transport in a {@link LoopbackNetwork}. */
    public final class Loopback implements Transport {
        private final String endpoint;
        private final FrameValidator validator;
        private final TrafficCounters traffic = new TrafficCounters();
        private final ArrayDeque<byte[]> inbox = new ArrayDeque<>();
        private final List<String> links = new ArrayList<>();
        private final Set<Integer> refusedTypes = new HashSet<>();
        /** Types whose next frame sent here is lost on the way (once each). */
        private final Set<Integer> loseNextOfType = new HashSet<>();
        /** Per sender id, frames lost since its last delivered one: reported with its next frame, as a skip is. */
        private final Map<Integer, Long> lostBySender = new HashMap<>();
        private LossListener lossListener = LossListener.NONE;
        private boolean closed;

        private Loopback(final String endpoint, final FrameValidator validator) {
            this.endpoint = endpoint;
            this.validator = validator;
        }

        @Override
        public String endpoint() {
            return endpoint;
        }

        @Override
        public int maxMessageBytes() {
            return 16 * 1024 * 1024;
        }

        @Override
        public int doDriverWork() {
            return 0;
        }

        @Override
        public int poll(final FrameHandler handler, final int fragmentLimit) {
            int delivered = 0;
            while (delivered < fragmentLimit && !inbox.isEmpty()) {
                final byte[] frame = inbox.poll();
                delivered++;
                final UnsafeBuffer buffer = new UnsafeBuffer(frame);
                if (frame.length >= HeaderFlyweight.HEADER_LENGTH) {
                    final Long lost = lostBySender.remove(buffer.getInt(HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER));
                    if (lost != null) {
                        // as the real transport: the next frame of the stream shows the skip
                        lossListener.onReceiveLoss(buffer.getInt(HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER), lost);
                    }
                }
                final int type = validator.validateHeader(buffer, 0, frame.length);
                if (type != FrameValidator.INVALID) {
                    traffic.onReceived(type, frame.length);
                    handler.onFrame(type, buffer, 0, frame.length);
                }
            }
            return delivered;
        }

        /** Frames waiting to be polled. */
        public int inboxSize() {
            return inbox.size();
        }

        /**
         * Frames of {@code type} sent to this transport are refused from now on: the sender's {@code send}
         * returns false, as when its queue to this peer is full.
         */
        public void refuse(final int type) {
            refusedTypes.add(type);
        }

        /**
         * The next frame of {@code type} sent to this transport is lost on the way (Aeron gave up on the stream):
         * the sender's {@code send} returns true, and the next frame from the same sender reports the loss to the
         * {@link LossListener}, as a skip in the stream's sequence numbers does.
         */
        public void loseNext(final int type) {
            loseNextOfType.add(type);
        }

        /** Tells this transport's {@link LossListener} at once that {@code lost} messages from {@code senderId} were lost. */
        public void reportLoss(final int senderId, final long lost) {
            lossListener.onReceiveLoss(senderId, lost);
        }

        @Override
        public void lossListener(final LossListener listener) {
            this.lossListener = listener;
        }

        /** Drops every frame waiting to be polled (a node paused long enough that its socket buffer overflowed). */
        public void dropInbox() {
            inbox.clear();
        }

        @Override
        public int linkTo(final String peerEndpoint) {
            int link = links.indexOf(peerEndpoint);
            if (link < 0) {
                links.add(peerEndpoint);
                link = links.size() - 1;
            }
            return link;
        }

        @Override
        public boolean send(final int linkId, final DirectBuffer buffer, final int offset, final int length) {
            if (closed || length > maxMessageBytes() || length < HeaderFlyweight.HEADER_LENGTH) {
                return false;
            }
            final int type = buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
            final Loopback destination = byEndpoint.get(links.get(linkId));
            if (destination != null && destination.refusedTypes.contains(type)) {
                return false;
            }
            traffic.onSent(type, length);
            if (destination != null && destination.loseNextOfType.remove(type)) {
                destination.lostBySender.merge(buffer.getInt(offset + HeaderFlyweight.SENDER_ID_OFFSET,
                    HeaderFlyweight.BYTE_ORDER), 1L, Long::sum);
                return true;
            }
            if (destination != null && !destination.closed) {
                final byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                destination.inbox.add(copy);
            }
            return true;
        }

        @Override
        public boolean hasQueued() {
            return false;
        }

        @Override
        public int doOutboundWork(final int limitPerLink) {
            return 0;
        }

        @Override
        public int closeLink(final int linkId) {
            return 0;
        }

        @Override
        public int closeLinkTo(final String peerEndpoint) {
            return 0;
        }

        @Override
        public TrafficCounters traffic() {
            return traffic;
        }

        /** The node crashed: nothing reaches it any more, and it sends nothing. */
        @Override
        public void close() {
            closed = true;
            inbox.clear();
        }
    }
}
