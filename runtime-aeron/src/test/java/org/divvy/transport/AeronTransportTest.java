package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.agent.EveryoneIsAMember;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.MessageHandler;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.membership.JoinFlyweight;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.security.FrameAuthenticator;
import org.divvy.security.TestAuthenticators;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.results.JobResultFlyweight;
import org.divvy.stealing.StealReplyFlyweight;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AeronTransportTest {
    /** An owed STREAM_CONTINUES goes by itself 5 s after its idle close here (Aeron's linger; 30 s in a node). */
    private static final long OWED_CONTINUATION_AFTER_NS = TimeUnit.SECONDS.toNanos(5);
    private static MediaDriver driver;

    @BeforeAll
    static void launchDriver() {
        driver = TestDriver.launch();
    }

    @AfterAll
    static void closeDriver() {
        driver.close();
    }

    private static final class Node implements AutoCloseable {
        final FrameCounters counters = new FrameCounters();
        final AtomicLong errors = new AtomicLong();
        final AeronTransport transport;
        final List<byte[]> received = new ArrayList<>();
        /** The receive path a node has: types it does not know are counted and dropped there. */
        final FrameDispatcher handler = new FrameDispatcher(counters, new EveryoneIsAMember(), e -> {
            throw new AssertionError("a handler threw", e);
        });

        {
            handler.register(StealReplyFlyweight.TYPE, "STEAL_REPLY", new StealReplyFlyweight(), StealReplyFlyweight.MIN_BODY_LENGTH,
                FrameDispatcher.Senders.MEMBERS, (senderId, buffer, offset, length) -> {
                    final byte[] copy = new byte[length];
                    buffer.getBytes(offset, copy);
                    received.add(copy);
                    return 1;
                });
        }

        Node(final String aeronDir, final int termLength) {
            this(NodeConfig.builder().networked(true).aeronDirectory(aeronDir).termLengthBytes(termLength).build());
        }

        final FrameAuthenticator authenticator;
        /** What the transport told its loss listener: "received senderId lost" or "sent endpoint". */
        final List<String> losses = new ArrayList<>();

        Node(final NodeConfig config) {
            this(config, TestAuthenticators.inRun(7));
        }

        Node(final NodeConfig config, final FrameAuthenticator authenticator) {
            this.authenticator = authenticator;
            transport = new AeronTransport(config, new FrameValidator(counters), new TrafficCounters(), authenticator,
                t -> errors.incrementAndGet(), OWED_CONTINUATION_AFTER_NS);
            transport.lossListener(new LossListener() {
                @Override
                public void onReceiveLoss(final int senderId, final long lost) {
                    losses.add("received " + senderId + " " + lost);
                }

                @Override
                public void onSendLoss(final String peerEndpoint) {
                    losses.add("sent " + peerEndpoint);
                }
            });
        }

        int doWork() {
            return transport.doDriverWork() + transport.poll(handler, 16) + transport.doOutboundWork(16);
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    private static void awaitWhileStepping(final BooleanSupplier condition, final Node... nodes) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            int work = 0;
            for (final Node node : nodes) {
                work += node.doWork();
            }
            if (work == 0) {
                Thread.sleep(1);
            }
        }
    }

    private static byte[] stealReply(final int argumentsLength, final long seed) {
        final byte[] arguments = new byte[argumentsLength];
        new Random(seed).nextBytes(arguments);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[argumentsLength + 256]);
        final StealReplyFlyweight reply = new StealReplyFlyweight();
        reply.wrap(buffer, 0, buffer.capacity());
        reply.headerDefaults(StealReplyFlyweight.TYPE).senderId(1);
        reply.requestId(seed).ownerJobId(seed * 2).job("a.B#c", new UnsafeBuffer(new byte[] {1}), 0, 1,
            new UnsafeBuffer(arguments), 0, argumentsLength);
        final byte[] frame = new byte[reply.frameLength()];
        buffer.getBytes(0, frame);
        return frame;
    }

    @Test
    void shouldDeliverSmallAndOneMebibyteMessagesIntactInOrderOfEachKind() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final List<byte[]> sent = List.of(stealReply(10, 1), stealReply(1024 * 1024, 2), stealReply(20, 3), stealReply(300_000, 4),
                stealReply(2 * 1024 * 1024, 5), stealReply(30, 6));
            for (final byte[] frame : sent) {
                assertTrue(a.transport.send(link, new UnsafeBuffer(frame), 0, frame.length));
            }
            awaitWhileStepping(() -> b.received.size() == sent.size(), a, b);
            // control frames (small) may overtake bulk ones; each kind keeps its order
            for (final boolean small : new boolean[] {true, false}) {
                final List<byte[]> expected = sent.stream().filter(f -> (f.length <= 1024) == small).toList();
                final List<byte[]> received = b.received.stream().filter(f -> (f.length <= 1024) == small).toList();
                assertEquals(expected.size(), received.size());
                for (int i = 0; i < expected.size(); i++) {
                    assertArrayEquals(expected.get(i), received.get(i), (small ? "small" : "big") + " message " + i);
                }
            }
            assertEquals(0, b.counters.totalDropped());
            assertTrue(a.transport.traffic().messagesSent(ChunkFlyweight.TYPE) > 100);
            assertEquals(sent.size(), b.transport.traffic().messagesReceived(StealReplyFlyweight.TYPE));
            assertEquals(0, a.transport.queuedMessages(link));
        }
    }

    /**
     * On its own embedded driver a node's deep-idle wait watches its publication's socket as well as its receive
     * socket: with the peer still stepping and this node waiting, only the peer's status messages to this node's
     * publication can end a wait of ten minutes (the test's timeout would catch it running its course).
     */
    @Test
    void shouldEndTheIdleWaitOnAStatusMessageToAPublication() throws Exception {
        final NodeConfig ownDriver = NodeConfig.builder().networked(true).termLengthBytes(64 * 1024).build();
        try (Node a = new Node(ownDriver); Node b = new Node(ownDriver)) {
            final DatagramWait wait = a.transport.datagramWait();
            assertNotNull(wait, "an embedded driver's sockets are watched");
            assertEquals(1, wait.watchedSockets(), "the receive endpoint's socket");
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] frame = stealReply(10, 1);
            assertTrue(a.transport.send(link, new UnsafeBuffer(frame), 0, frame.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            assertEquals(2, wait.watchedSockets(), "and the publication's");
            assertEquals(1, a.transport.resolver().expected(), "the driver's resolver was woken before the publication opened");
            while (a.doWork() > 0) {
                Thread.onSpinWait(); // nothing of b's left unread on a's sockets
            }
            final AtomicBoolean stop = new AtomicBoolean();
            final Thread stepper = new Thread(() -> {
                while (!stop.get()) {
                    if (b.doWork() == 0) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                }
            }, "b-stepper");
            stepper.start();
            try {
                final long before = wait.datagramWakes();
                wait.await(TimeUnit.MINUTES.toNanos(10));
                assertEquals(before + 1, wait.datagramWakes(), "a datagram to the publication's socket ended the wait");
            } finally {
                stop.set(true);
                stepper.join();
            }
        }
    }

    /**
     * With {@code idlePublicationCloseMs}, a link whose publication took nothing for that long closes it (fewer streams
     * for the driver), and the next frame opens a new one: a STREAM_CONTINUES goes first, the stream's sequence numbers
     * go on, and the peer gets every frame with no loss reported, nothing refused as a replay, and no second
     * last-sequence entry for the reopened stream.
     */
    @Test
    void shouldCloseAnIdlePublicationAndDeliverTheNextFrameOnANewOne() throws InterruptedException {
        final NodeConfig closing = NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024).idlePublicationCloseMs(1_000).build(); // the shortest allowed
        try (Node a = new Node(closing); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 31);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            assertTrue(a.transport.isConnected(link));

            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);
            assertFalse(a.transport.isConnected(link));

            final byte[] second = stealReply(16, 32);
            final byte[] big = stealReply(300_000, 33); // chunked: the new stream carries large messages too
            assertTrue(a.transport.send(link, new UnsafeBuffer(second), 0, second.length));
            assertTrue(a.transport.send(link, new UnsafeBuffer(big), 0, big.length));
            awaitWhileStepping(() -> b.received.size() == 3, a, b);
            assertArrayEquals(first, b.received.get(0));
            assertArrayEquals(second, b.received.get(1));
            assertArrayEquals(big, b.received.get(2));
            assertEquals(1, a.transport.traffic().publicationsClosedIdle.get()); // busy again: not closed under the sends
            assertEquals(0, b.transport.authenticationCounters().lostInTransit.get());
            assertEquals(0, b.transport.authenticationCounters().replayed.get());
            assertEquals(0, b.counters.totalDropped());
            assertEquals(0, a.errors.get());
            assertEquals(1, a.transport.traffic().messagesSent(AeronTransport.CONTINUES_TYPE));
            assertEquals(1, b.transport.traffic().messagesReceived(AeronTransport.CONTINUES_TYPE));
            assertEquals(0, b.transport.traffic().continuationsHeld.get()); // the closed stream had all arrived
            assertEquals(1, b.authenticator.streamsKnown(), "one entry for the link, however often it reopens");
            assertEquals(List.of(), b.losses);
        }
    }

    /**
     * A link closed for good (its peer dead or gone) after an idle close owes nothing: the next publication on that link
     * starts a new stream (a new instance, from sequence 0) with no STREAM_CONTINUES, and the peer takes it as such.
     */
    @Test
    void shouldStartANewStreamWithoutAContinuationAfterTheLinkIsClosedForGood() throws InterruptedException {
        final NodeConfig closing = NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024).idlePublicationCloseMs(1_000).build();
        try (Node a = new Node(closing); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 81);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);
            assertEquals(0, a.transport.closeLink(link));

            final byte[] second = stealReply(16, 82);
            assertTrue(a.transport.send(link, new UnsafeBuffer(second), 0, second.length));
            awaitWhileStepping(() -> b.received.size() == 2, a, b);
            assertEquals(0, a.transport.traffic().messagesSent(AeronTransport.CONTINUES_TYPE));
            assertEquals(2, b.authenticator.streamsKnown(), "a new stream");
            assertEquals(List.of(), b.losses);
            assertEquals(0, b.transport.authenticationCounters().lostInTransit.get());
        }
    }

    /**
     * A continuation owed to a peer that is gone (a tool that exited, a refused joiner, a node whose link was never
     * cut): the publication opened for it alone never connects, so it is closed again after Aeron's connection timeout,
     * and the continuation waits for the next real frame instead of reopening a publication to a dead endpoint for ever.
     */
    @Test
    void shouldCloseAPublicationOpenedForAContinuationAloneThatNobodyAnswers() throws InterruptedException {
        final NodeConfig closing = NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024).idlePublicationCloseMs(1_000).build();
        try (Node a = new Node(closing)) {
            final Node b = new Node(driver.aeronDirectoryName(), 64 * 1024);
            final int link;
            try {
                link = a.transport.linkTo(b.transport.endpoint());
                final byte[] first = stealReply(16, 91);
                assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
                awaitWhileStepping(() -> b.received.size() == 1, a, b);
                awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);
            } finally {
                b.close(); // gone, with the continuation owed to it
            }
            // after the owed delay a publication opens for the continuation alone; nobody answers; it is closed again
            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 2, a);
            assertEquals(0, a.transport.traffic().messagesSent(AeronTransport.CONTINUES_TYPE));
            assertFalse(a.transport.isConnected(link));
            final long untilNs = System.nanoTime() + OWED_CONTINUATION_AFTER_NS + TimeUnit.SECONDS.toNanos(1);
            awaitWhileStepping(() -> System.nanoTime() - untilNs > 0, a);
            assertEquals(2, a.transport.traffic().publicationsClosedIdle.get(), "not reopened by the clock");
            assertFalse(a.transport.isConnected(link));
        }
    }

    /**
     * Before a node knows its run it signs only under the join key, which carries the join handshake alone: an idle
     * close then owes no STREAM_CONTINUES (the peer would refuse one under that key, and its used-up sequence number
     * would look like a loss); the next publication starts a new stream.
     */
    @Test
    void shouldStartANewStreamAfterAnIdleCloseBeforeTheNodeKnowsItsRun() throws InterruptedException {
        final NodeConfig closing = NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024).idlePublicationCloseMs(1_000).build();
        try (Node a = new Node(closing, TestAuthenticators.member()); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final UnsafeBuffer join = new UnsafeBuffer(new byte[HeaderFlyweight.HEADER_LENGTH]);
            new HeaderFlyweight().wrap(join, 0, join.capacity()).headerDefaults(JoinFlyweight.TYPE);
            assertTrue(a.transport.send(link, join, 0, join.capacity()));
            awaitWhileStepping(() -> b.transport.traffic().messagesReceived(JoinFlyweight.TYPE) == 1, a, b);
            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);

            assertTrue(a.transport.send(link, join, 0, join.capacity()));
            awaitWhileStepping(() -> b.transport.traffic().messagesReceived(JoinFlyweight.TYPE) == 2, a, b);
            assertEquals(0, a.transport.traffic().messagesSent(AeronTransport.CONTINUES_TYPE));
            assertEquals(0, b.transport.authenticationCounters().wrongKey.get());
            assertEquals(0, b.transport.authenticationCounters().lostInTransit.get());
            assertEquals(List.of(), b.losses);
            assertEquals(2, b.authenticator.streamsKnown(), "a new stream");
        }
    }

    /** Node a, closing idle publications after 1 s, whose datagrams to b go through {@code relay}. */
    private static Node closingThrough(final SessionDroppingRelay relay, final Node b) {
        return new Node(NodeConfig.builder().networked(true).aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024).idlePublicationCloseMs(1_000)
            .peerRoutes(Map.of(b.transport.endpoint(), relay.endpoint())).build());
    }

    /**
     * The closed stream's tail really lost (every datagram of its session dropped from just before it, retransmits
     * included, while the peer's status messages keep the publication connected, so it closes idle), and the sender
     * never sends to that peer again: the owed STREAM_CONTINUES goes by itself, the peer holds it until the closed
     * stream's image is gone, and then reports the one lost message as a sequence skip. The publication that carried
     * only the continuation closes idle too, and owes the next one to the next frame, not to the clock.
     */
    @Test
    void shouldReportTheLostTailOfAStreamClosedIdleWhenTheSenderNeverSendsAgain() throws Exception {
        try (Node b = new Node(driver.aeronDirectoryName(), 64 * 1024); SessionDroppingRelay relay = new SessionDroppingRelay(
            b.transport.endpoint()); Node a = closingThrough(relay, b)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 51);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            relay.dropSessionsSeen();
            final byte[] tail = stealReply(16, 52);
            assertTrue(a.transport.send(link, new UnsafeBuffer(tail), 0, tail.length));
            assertEquals(0, a.transport.queuedMessages(link), "the publication took the tail");

            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);
            awaitWhileStepping(() -> !b.losses.isEmpty(), a, b);
            assertEquals(List.of("received 1 1"), b.losses);
            assertEquals(1, b.transport.authenticationCounters().lostInTransit.get());
            assertEquals(1, b.transport.traffic().continuationsHeld.get());
            assertEquals(1, b.received.size());
            assertTrue(relay.datagramsDropped() > 0);
            assertEquals(1, b.authenticator.streamsKnown());

            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 2, a, b);
            final long untilNs = System.nanoTime() + OWED_CONTINUATION_AFTER_NS + TimeUnit.SECONDS.toNanos(1);
            awaitWhileStepping(() -> System.nanoTime() - untilNs > 0, a, b);
            assertEquals(1, a.transport.traffic().messagesSent(AeronTransport.CONTINUES_TYPE), "no stream of continuations alone");
            assertFalse(a.transport.isConnected(link));
            assertEquals(List.of(), a.losses);
        }
    }

    /**
     * The closed stream's tail lost first, then the next frame: the new publication's STREAM_CONTINUES is held, and
     * so is the frame behind it, until the old image is gone; the loss is reported, the frame delivered after it.
     */
    @Test
    void shouldReportTheLostTailOfAStreamClosedIdleAheadOfTheNextFrame() throws Exception {
        try (Node b = new Node(driver.aeronDirectoryName(), 64 * 1024); SessionDroppingRelay relay = new SessionDroppingRelay(
            b.transport.endpoint()); Node a = closingThrough(relay, b)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 61);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            relay.dropSessionsSeen();
            final byte[] tail = stealReply(16, 62);
            assertTrue(a.transport.send(link, new UnsafeBuffer(tail), 0, tail.length));
            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);

            final byte[] next = stealReply(300_000, 63); // chunked: the continuation goes ahead of its chunks
            assertTrue(a.transport.send(link, new UnsafeBuffer(next), 0, next.length));
            awaitWhileStepping(() -> b.transport.traffic().continuationsHeld.get() == 1, a, b);
            assertEquals(1, b.received.size(), "nothing behind the held continuation overtakes the lost tail's verdict");
            awaitWhileStepping(() -> b.received.size() == 2, a, b);
            assertEquals(List.of("received 1 1"), b.losses);
            assertArrayEquals(next, b.received.get(1));
            assertEquals(1, b.transport.authenticationCounters().lostInTransit.get());
            assertEquals(0, b.transport.authenticationCounters().replayed.get());
            assertEquals(1, b.authenticator.streamsKnown());
        }
    }

    /**
     * No false loss when the new publication's STREAM_CONTINUES is polled before the closed stream's tail: the tail is
     * held up (its datagrams dropped) until the continuation is held, then let through; the closed publication, still
     * lingering, repairs it, the continuation passes, and every frame arrives in order with no loss reported.
     */
    @Test
    void shouldNotReportALossWhenTheContinuationArrivesBeforeTheClosedStreamsTail() throws Exception {
        try (Node b = new Node(driver.aeronDirectoryName(), 64 * 1024); SessionDroppingRelay relay = new SessionDroppingRelay(
            b.transport.endpoint()); Node a = closingThrough(relay, b)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 71);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            relay.dropSessionsSeen();
            final byte[] tail = stealReply(16, 72);
            assertTrue(a.transport.send(link, new UnsafeBuffer(tail), 0, tail.length));
            awaitWhileStepping(() -> a.transport.traffic().publicationsClosedIdle.get() == 1, a, b);

            final byte[] next = stealReply(16, 73);
            assertTrue(a.transport.send(link, new UnsafeBuffer(next), 0, next.length));
            awaitWhileStepping(() -> b.transport.traffic().continuationsHeld.get() == 1, a, b);
            relay.passAll(); // within the closed publication's 5 s linger: its heartbeats show the gap, its retransmit fills it
            awaitWhileStepping(() -> b.received.size() == 3, a, b);
            assertArrayEquals(tail, b.received.get(1));
            assertArrayEquals(next, b.received.get(2));
            assertEquals(List.of(), b.losses);
            assertEquals(0, b.transport.authenticationCounters().lostInTransit.get());
            assertEquals(0, b.transport.authenticationCounters().replayed.get());
            assertEquals(1, b.authenticator.streamsKnown());
        }
    }

    /** Without {@code idlePublicationCloseMs} (the default) a publication stays open however long it is idle. */
    @Test
    void shouldKeepAnIdlePublicationOpenByDefault() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(16, 41);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            final long untilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500); // past the shortest idle close
            awaitWhileStepping(() -> System.nanoTime() - untilNs > 0, a, b);
            assertTrue(a.transport.isConnected(link));
            assertEquals(0, a.transport.traffic().publicationsClosedIdle.get());
        }
    }

    @Test
    void shouldDeliverASmallFrameAheadOfABigOneQueuedBeforeItForTheSamePeer() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] big = stealReply(8 * 1024 * 1024, 21);
            final byte[] small = stealReply(16, 22); // the size of control traffic: heartbeats, steal requests
            assertTrue(a.transport.send(link, new UnsafeBuffer(big), 0, big.length));
            assertTrue(a.transport.send(link, new UnsafeBuffer(small), 0, small.length));
            awaitWhileStepping(() -> b.received.size() == 2, a, b);
            // control frames travel on their own stream: they never wait behind megabytes for the same peer
            assertArrayEquals(small, b.received.get(0));
            assertArrayEquals(big, b.received.get(1));
            assertEquals(0, b.counters.totalDropped());
        }
    }

    /**
     * Big messages travel in off-heap frames (the link's copy of one that must wait, the receiver's reassembly
     * buffer), each freed once: the sending link's when the publication took it all, the receiver's when its
     * handler returns, or later when a handler kept it and gave it back.
     */
    @Test
    void shouldFreeEveryOffHeapFrameOnceBigMessagesAreDeliveredOrGivenBack() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final List<DirectBuffer> kept = new ArrayList<>();
            b.handler.register(JobResultFlyweight.TYPE, "JOB_RESULT", new JobResultFlyweight(), JobResultFlyweight.MIN_BODY_LENGTH,
                FrameDispatcher.Senders.MEMBERS, (senderId, buffer, offset, length) -> {
                    kept.add(MessageHandler.retainKept(buffer)); // a handler that decodes it later, elsewhere
                    return 1;
                });
            final int link = a.transport.linkTo(b.transport.endpoint());
            final List<byte[]> sent = List.of(stealReply(3 * 1024 * 1024, 31), stealReply(300_000, 32), stealReply(2 * 1024 * 1024, 33));
            for (final byte[] frame : sent) {
                assertTrue(a.transport.send(link, new UnsafeBuffer(frame), 0, frame.length));
            }
            assertTrue(a.transport.offHeapMemory().liveBytes() > 0, "what the publication did not take yet waits in a copy");
            final byte[] result = jobResult(5 * 1024 * 1024);
            assertTrue(a.transport.send(link, new UnsafeBuffer(result), 0, result.length));
            awaitWhileStepping(() -> b.received.size() == sent.size() && kept.size() == 1, a, b);
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), b.received.get(i));
            }
            final DirectBuffer held = kept.get(0);
            assertInstanceOf(OffHeapFrame.class, held, "a big message is delivered off the heap");
            final byte[] heldBytes = new byte[result.length];
            held.getBytes(0, heldBytes);
            assertArrayEquals(result, heldBytes);
            assertEquals(result.length, b.transport.offHeapMemory().liveBytes(), "only the frame the handler kept");
            MessageHandler.releaseKept(held);
            awaitLiveBytesZero(a, b);
            assertEquals(4, b.transport.offHeapMemory().allocatedFrames(), "one frame per big message received");
            assertTrue(a.transport.offHeapMemory().allocatedFrames() > 0);
            assertEquals(0, b.counters.totalDropped());
            assertEquals(0, a.errors.get() + b.errors.get());
        }
    }

    /**
     * A peer that dies in the middle of a big message: the receiver's partial message is freed when its stream goes
     * away, and what the dead sender's link still held was freed when it closed.
     */
    @Test
    void shouldFreeThePartOfABigMessageWhoseSenderDiesHalfWay() throws InterruptedException {
        try (Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final Node a = new Node(driver.aeronDirectoryName(), 64 * 1024);
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] big = stealReply(16 * 1024 * 1024, 41);
            assertTrue(a.transport.send(link, new UnsafeBuffer(big), 0, big.length));
            awaitWhileStepping(() -> b.transport.isReceivingLargeMessage(), a, b);
            assertTrue(a.transport.queuedMessages(link) > 0, "the rest of the message is still to be sent");
            a.close(); // the sender is gone: the rest of the message never comes
            assertEquals(0, a.transport.offHeapMemory().liveBytes(), "the link's copy is freed with it");
            awaitWhileStepping(() -> !b.transport.isReceivingLargeMessage(), b);
            awaitLiveBytesZero(b);
            assertTrue(b.received.isEmpty());
            assertTrue(b.counters.badChunk.get() > 0, "the cut-off message is counted");
        }
    }

    private static void awaitLiveBytesZero(final Node... nodes) throws InterruptedException {
        awaitWhileStepping(() -> {
            for (final Node node : nodes) {
                if (node.transport.offHeapMemory().liveBytes() != 0 || node.transport.offHeapMemory().liveFrames() != 0) {
                    return false;
                }
            }
            return true;
        }, nodes);
    }

    private static byte[] jobResult(final int valueLength) {
        final byte[] value = new byte[valueLength];
        new Random(valueLength).nextBytes(value);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[valueLength + 256]);
        final JobResultFlyweight result = new JobResultFlyweight();
        result.wrap(buffer, 0, buffer.capacity());
        result.headerDefaults(JobResultFlyweight.TYPE).senderId(1);
        result.ownerJobId(5).value(new UnsafeBuffer(value), 0, valueLength);
        final byte[] frame = new byte[result.frameLength()];
        buffer.getBytes(0, frame);
        return frame;
    }

    @Test
    void shouldCountAndDropGarbageAndKeepWorking() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024); Node b = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final Random random = new Random(7);
            final byte[] valid = stealReply(40, 9);
            int garbage = 0;
            for (int i = 0; i < 200; i++) {
                final byte[] frame;
                if (i % 2 == 0) {
                    frame = new byte[HeaderFlyweight.HEADER_LENGTH + random.nextInt(100)];
                    random.nextBytes(frame);
                    frame[0] = (byte)HeaderFlyweight.CURRENT_VERSION;
                    new UnsafeBuffer(frame).putInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, frame.length, HeaderFlyweight.BYTE_ORDER);
                    frame[HeaderFlyweight.TYPE_OFFSET] = (byte)(200 + random.nextInt(50));
                } else {
                    frame = new byte[HeaderFlyweight.HEADER_LENGTH + random.nextInt(valid.length - HeaderFlyweight.HEADER_LENGTH)];
                    System.arraycopy(valid, 0, frame, 0, frame.length);
                }
                garbage++;
                assertTrue(a.transport.send(link, new UnsafeBuffer(frame), 0, frame.length));
            }
            assertTrue(a.transport.send(link, new UnsafeBuffer(valid), 0, valid.length));
            final int expectedGarbage = garbage;
            awaitWhileStepping(() -> b.received.size() == 1 && b.counters.totalDropped() == expectedGarbage, a, b);
            assertArrayEquals(valid, b.received.get(0));
            assertEquals(100, b.counters.unknownType.get());
            assertEquals(100, b.counters.truncated.get());
        }
    }

    @Test
    void shouldQueueWhilePeerIsUnreachableAndReportDropsOnClose() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo("127.0.0.1:9");
            final byte[] frame = stealReply(10, 1);
            for (int i = 0; i < 5; i++) {
                assertTrue(a.transport.send(link, new UnsafeBuffer(frame), 0, frame.length));
                a.doWork();
            }
            assertFalse(a.transport.isConnected(link));
            assertEquals(5, a.transport.queuedMessages(link));
            assertEquals(5, a.transport.closeLink(link));
            assertEquals(5, a.transport.traffic().droppedPeerGone.get());
        }
    }

    /** A big frame handed over ({@code sendOwned}) to a peer that never takes it is freed when its link closes. */
    @Test
    void shouldFreeAFrameHandedOverWhenItsLinkClosesUnsent() throws InterruptedException {
        try (Node a = new Node(driver.aeronDirectoryName(), 64 * 1024)) {
            final int link = a.transport.linkTo("127.0.0.1:9");
            final byte[] reply = stealReply(2 * 1024 * 1024, 51);
            final OffHeapFrame frame = a.transport.offHeapMemory().allocate(reply.length);
            frame.putBytes(0, reply);
            assertTrue(a.transport.sendOwned(link, frame, reply.length));
            a.doWork();
            assertEquals(1, frame.references(), "the link holds it");
            assertEquals(1, a.transport.closeLink(link));
            awaitLiveBytesZero(a);
            assertEquals(0, frame.references());
        }
    }

    @Test
    void shouldRunWithItsOwnInvokerDriverAndDeleteItsDirectory() throws InterruptedException {
        final String dir;
        try (Node a = new Node(null, 64 * 1024); Node b = new Node(null, 128 * 1024)) {
            dir = a.transport.aeronDirectoryName();
            assertTrue(new File(dir).exists());
            final byte[] frame = stealReply(200_000, 5);
            assertTrue(a.transport.send(a.transport.linkTo(b.transport.endpoint()), new UnsafeBuffer(frame), 0, frame.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b);
            assertArrayEquals(frame, b.received.get(0));
        }
        assertFalse(new File(dir).exists());
    }

    @Test
    void shouldSendWhatACycleSentAtTheEndOfThatCycle() throws InterruptedException {
        try (Node a = new Node(null, 64 * 1024); Node b = new Node(null, 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(10, 1);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b); // connected both ways, flow control set up

            // a's agent cycle: a handler sends, then the cycle's end steps its driver; a is not stepped again
            a.transport.beginDriverWork();
            final byte[] second = stealReply(20, 2);
            assertTrue(a.transport.send(link, new UnsafeBuffer(second), 0, second.length));
            assertTrue(a.transport.endDriverWork() > 0, "the driver sent the frame");
            for (int cycle = 0; cycle < 10_000 && b.received.size() < 2; cycle++) {
                if (b.transport.beginDriverWork() + b.transport.poll(b.handler, 16) + b.transport.endDriverWork() == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(2, b.received.size(), "the frame left with the cycle that sent it, not with a's next cycle");
            assertArrayEquals(second, b.received.get(1));
        }
    }

    @Test
    void shouldSendWhatThePollsHandlersSentBeforeTheDuties() throws InterruptedException {
        try (Node a = new Node(null, 64 * 1024); Node b = new Node(null, 64 * 1024)) {
            final int link = a.transport.linkTo(b.transport.endpoint());
            final byte[] first = stealReply(10, 1);
            assertTrue(a.transport.send(link, new UnsafeBuffer(first), 0, first.length));
            awaitWhileStepping(() -> b.received.size() == 1, a, b); // connected both ways, flow control set up

            // a's agent cycle: the first step, then a handler sends; only the step after the poll may send it
            a.transport.beginDriverWork();
            assertEquals(0, a.transport.sendHandlersFrames(), "no step when the handlers sent nothing");
            final byte[] second = stealReply(20, 2);
            assertTrue(a.transport.send(link, new UnsafeBuffer(second), 0, second.length));
            assertTrue(a.transport.sendHandlersFrames() > 0, "the driver sent the frame");
            for (int cycle = 0; cycle < 10_000 && b.received.size() < 2; cycle++) {
                if (b.transport.beginDriverWork() + b.transport.poll(b.handler, 16) + b.transport.endDriverWork() == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(2, b.received.size(), "the frame left with the step after the poll, before the cycle's end");
            assertArrayEquals(second, b.received.get(1));
            assertTrue(a.transport.endDriverWork() >= 0);
        }
    }

    @Test
    void shouldDeliverFramesToItselfAtTheNextPollInOrderWithoutTheDriver() throws InterruptedException {
        try (Node a = new Node(null, 64 * 1024)) {
            final int self = a.transport.linkTo(a.transport.endpoint());
            assertEquals(self, a.transport.linkTo(a.transport.endpoint()), "one link to itself");
            // a control frame, one above the size handlers may keep (64 KiB), one of several MiB, another control frame
            final List<byte[]> sent = List.of(stealReply(10, 1), stealReply(100_000, 2), stealReply(3 * 1024 * 1024, 3),
                stealReply(20, 4));
            for (final byte[] frame : sent) {
                assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            }
            assertTrue(a.received.isEmpty(), "nothing is delivered inside the send");
            assertTrue(a.transport.endDriverWork() > 0, "frames waiting for the next poll are work: no park before it");
            // no driver step: only an in-process hand-off can deliver them now
            assertEquals(sent.size(), a.transport.poll(a.handler, 16));
            assertEquals(sent.size(), a.received.size());
            for (int i = 0; i < sent.size(); i++) {
                assertArrayEquals(sent.get(i), a.received.get(i), "message " + i + ", in the order sent");
            }
            assertEquals(0, a.transport.poll(a.handler, 16), "each delivered once");
            assertEquals(sent.size(), a.transport.traffic().messagesSent(StealReplyFlyweight.TYPE));
            assertEquals(sent.size(), a.transport.traffic().messagesReceived(StealReplyFlyweight.TYPE));
            assertEquals(0, a.transport.traffic().messagesSent(ChunkFlyweight.TYPE), "nothing chunked");
            assertEquals(0, a.counters.totalDropped());
            assertEquals(0, a.errors.get());
            assertTrue(a.transport.isConnected(self));
            assertEquals(0, a.transport.queuedMessages(self));
            assertFalse(a.transport.hasQueued());
        }
    }

    @Test
    void shouldAuthenticateFramesToItselfAsFramesFromTheWire() {
        try (Node a = new Node(null, 64 * 1024)) {
            final int self = a.transport.linkTo(a.transport.endpoint());
            final byte[] frame = stealReply(10, 1);
            assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            a.transport.useRunKey(8); // the run changed while the frame was under way: its key is no longer accepted
            a.transport.poll(a.handler, 16);
            assertTrue(a.received.isEmpty());
            assertEquals(1, a.transport.authenticationCounters().wrongKey.get());

            // signed under the new key, accepted; dropped ones leave no hole: a new stream after a close
            assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            assertEquals(2, a.transport.closeLinkTo(a.transport.endpoint()), "a close drops what waits");
            assertEquals(2, a.transport.traffic().droppedPeerGone.get());
            assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            a.transport.poll(a.handler, 16);
            assertEquals(1, a.received.size());
            assertEquals(0, a.transport.authenticationCounters().lostInTransit.get());
            assertEquals(0, a.transport.authenticationCounters().replayed.get());
        }
    }

    @Test
    void shouldDeliverWhatAHandlerSendsToItselfAtTheFollowingPoll() {
        try (Node a = new Node(null, 64 * 1024)) {
            final int self = a.transport.linkTo(a.transport.endpoint());
            final byte[] frame = stealReply(10, 1);
            final FrameHandler echoOnce = (type, buffer, offset, length) -> {
                a.handler.onFrame(type, buffer, offset, length);
                if (a.received.size() == 1) {
                    assertTrue(a.transport.send(self, buffer, offset, length)); // from inside the delivery
                }
            };
            assertTrue(a.transport.send(self, new UnsafeBuffer(frame), 0, frame.length));
            assertEquals(1, a.transport.poll(echoOnce, 16), "the frame sent during the poll waits for the next one");
            assertEquals(1, a.transport.poll(echoOnce, 16));
            assertEquals(2, a.received.size());
            assertArrayEquals(frame, a.received.get(1));
        }
    }
}
