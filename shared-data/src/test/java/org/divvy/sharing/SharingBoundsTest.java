package org.divvy.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.MemberDirectory;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.extension.ExtensionContext;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.Scheduler;
import org.divvy.testing.Await;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a member can make the sharing agent keep is bounded: writes to objects not held here are not kept, queued writes
 * stop at {@code maxSharedInboxBytes}, a large frame is kept as a view, not copied; holders are only of objects held
 * here and forget dead nodes; requests waiting for an answer are one per node and object, capped, and not encoded again
 * while their node's queue is full; a state too large to send is answered "not held", nothing escapes the duty. What
 * it holds off the heap when the node closes (an answer refused, writes queued for a safe point or held back there) is
 * given back: a JVM of many nodes does not leak it.
 */
@Timeout(30)
class SharingBoundsTest {
    private static final long INBOX_BYTES = 128 * 1024;

    private final TreeSet<Integer> alive = new TreeSet<>(List.of(0, 1, 2, 3));
    private int epoch = 1;
    private final MemberDirectory members = new MemberDirectory() {
        @Override
        public int selfId() {
            return 0;
        }

        @Override
        public int epoch() {
            return epoch;
        }

        @Override
        public String aliveEndpoint(final int nodeId) {
            return alive.contains(nodeId) ? "127.0.0.1:" + (40000 + nodeId) : null;
        }

        @Override
        public int[] aliveOthers() {
            return alive.stream().filter(id -> id != 0).mapToInt(Integer::intValue).toArray();
        }

        @Override
        public int senderStatus(final int senderId) {
            return MEMBER; // the dead still send: their frames in flight
        }
    };

    private final RecordingFrameSender sender = new RecordingFrameSender().withMaxFrameBytes(1 << 30);
    private final CodecThread codec = new CodecThread("sharing-test-codec", Throwable::printStackTrace);

    private final List<Throwable> errors = new ArrayList<>();
    private final FrameDispatcher dispatcher = new FrameDispatcher(new FrameCounters(), members, errors::add);
    private final SharingStatistics statistics = new SharingStatistics();
    private final WriteOutbox outbox = new WriteOutbox(statistics, () -> { });
    private final ReplicaTable replicas = new ReplicaTable(outbox, () -> { });
    private final SafePoints safePoints = new SafePoints(replicas, statistics, errors::add, 0, true, TimeUnit.SECONDS.toNanos(10),
        INBOX_BYTES, () -> { });
    private SharingAgent agent;
    private final long nowNs = 1_000_000_000L;

    private SharingAgent agent() {
        if (agent == null) {
            final NodeConfig config = NodeConfig.builder().networked(true).workers(1).maxSharedInboxBytes(INBOX_BYTES).build();
            final ExtensionContext context = new ExtensionContext(config, dispatcher, sender, members, new Scheduler(config, "test"),
                errors::add, () -> { }, codec);
            agent = new SharingAgent(context, replicas, outbox, safePoints, statistics);
            agent.register(context);
        }
        return agent;
    }

    private void deliver(final int type, final int senderId, final MutableDirectBuffer body, final int length) {
        body.putByte(HeaderFlyweight.VERSION_OFFSET, (byte)HeaderFlyweight.CURRENT_VERSION);
        body.putByte(HeaderFlyweight.TYPE_OFFSET, (byte)type);
        body.putInt(HeaderFlyweight.SENDER_ID_OFFSET, senderId, HeaderFlyweight.BYTE_ORDER);
        body.putInt(HeaderFlyweight.EPOCH_OFFSET, epoch, HeaderFlyweight.BYTE_ORDER);
        body.putInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, length, HeaderFlyweight.BYTE_ORDER);
        dispatcher.onFrame(type, body, 0, length);
    }

    /** An SO_UPDATE of {@code count} writes {@code grid.advance(version)}, in a buffer of its own; returns its length. */
    private static int advances(final MutableDirectBuffer buffer, final long gridId, final int version, final int count) {
        final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
        update.wrap(buffer, 0, buffer.capacity());
        update.count(count);
        int at = SharedUpdateFlyweight.WRITES_OFFSET;
        for (int i = 0; i < count; i++) {
            buffer.putLong(at, gridId, HeaderFlyweight.BYTE_ORDER);
            buffer.putInt(at + 8, 0, HeaderFlyweight.BYTE_ORDER); // advance, the only write method
            buffer.putInt(at + 12, 4, HeaderFlyweight.BYTE_ORDER);
            buffer.putInt(at + 16, version, HeaderFlyweight.BYTE_ORDER);
            at += SharedUpdateFlyweight.WRITE_HEADER_LENGTH + 4;
        }
        return at;
    }

    private void sendUpdate(final int from, final long gridId, final int version, final int count) {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 + 20 * count);
        deliver(SharedUpdateFlyweight.TYPE, from, buffer, advances(buffer, gridId, version, count));
    }

    private void request(final int from, final long objectId) {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
        request.wrap(buffer, 0, buffer.capacity());
        request.objectId(objectId);
        deliver(ReplicaRequestFlyweight.TYPE, from, buffer, ReplicaRequestFlyweight.FRAME_LENGTH);
    }

    private GridShared held(final int size) {
        final GridShared grid = new GridShared(size);
        replicas.attach(grid.divvyReplica());
        return grid;
    }

    @AfterEach
    void closeCodecThread() {
        codec.close();
        offHeap.close();
    }

    private final OffHeapMemory offHeap = new OffHeapMemory("sharing-test", errors::add);

    /** Delivers the frame in {@code buffer} as the transport hands over a large one: in an off-heap frame, its reference released after the call. */
    private void deliverOffHeap(final int type, final int senderId, final MutableDirectBuffer buffer, final int length) {
        final OffHeapFrame frame = offHeap.allocate(length);
        frame.putBytes(0, buffer, 0, length);
        deliver(type, senderId, frame, length);
        frame.release();
    }

    /** Closes the node as its agent does ({@code NetworkAgent.onClose}): the codec thread first, then the duties. */
    private void closeNode() {
        codec.close();
        agent.onAgentClose();
    }

    private void assertOffHeapFreed() {
        assertEquals(0, offHeap.liveBytes(), "off-heap bytes left");
        assertEquals(0, offHeap.liveFrames(), "off-heap frames left");
    }

    @Test
    void shouldGiveBackALargeUpdateQueuedForTheSafePointsWhenTheNodeCloses() {
        agent();
        final GridShared grid = held(4);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 + 20 * 4000);
        deliverOffHeap(SharedUpdateFlyweight.TYPE, 1, buffer, advances(buffer, grid.divvyReplica().id(), 5, 4000));
        assertEquals(1, offHeap.liveFrames(), "queued for a safe point: kept as a view of its frame");
        closeNode();
        assertOffHeapFreed();
        assertEquals(0, safePoints.queuedBytes());
        safePoints.safePoint();
        assertEquals(0, grid.version(), "dropped, not applied");
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldGiveBackALargeUpdateHeldBackAtASafePointWhenTheNodeCloses() {
        agent();
        final GridShared grid = held(4);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 + 20 * 4000);
        deliverOffHeap(SharedUpdateFlyweight.TYPE, 1, buffer, advances(buffer, grid.divvyReplica().id(), 5, 4000));
        final int read = grid.divvyReplica().readLock();
        try {
            safePoints.safePoint(); // a read of the grid holds its writes back: pending
        } finally {
            grid.divvyReplica().readUnlock(read);
        }
        assertEquals(0, grid.version(), "held back by the read");
        assertEquals(1, offHeap.liveFrames(), "pending at the safe points, with its frame");
        closeNode();
        assertOffHeapFreed();
        assertEquals(0, safePoints.queuedBytes());
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldGiveBackALargeAnswerItsNodeRefusedWhenTheNodeCloses() {
        sender.offHeap = offHeap;
        agent();
        final GridShared grid = held(20_000); // 160 KB of state: encoded on the codec thread into a frame off the heap
        sender.refuseAll = true;
        request(1, grid.divvyReplica().id());
        stepUntilSent(1);
        assertEquals(List.of(1), sender.offeredTo, "refused");
        assertEquals(1, offHeap.liveFrames(), "the refused answer waits with its frame");
        closeNode();
        assertOffHeapFreed();
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldGiveBackALargeAnswerTheCodecThreadEncodedWhenTheNodeClosesBeforeSendingIt() throws InterruptedException {
        sender.offHeap = offHeap;
        agent();
        final GridShared grid = held(20_000);
        request(1, grid.divvyReplica().id());
        final java.util.concurrent.CountDownLatch encoded = new java.util.concurrent.CountDownLatch(1);
        codec.submit(encoded::countDown, () -> { }); // runs after the encode: the answer is in the server's inbox
        assertTrue(encoded.await(10, TimeUnit.SECONDS));
        assertEquals(1, offHeap.liveFrames(), "encoded, not sent yet");
        closeNode();
        assertOffHeapFreed();
        assertEquals(List.of(), sender.offeredTo, "never sent");
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldNotKeepWritesToObjectsNotHeldHereNorRememberTheirSenders() {
        agent();
        sendUpdate(3, 0x1234L, 1, 1);
        assertTrue(safePoints.isEmpty(), "nothing to apply them to: dropped on arrival");
        assertEquals(1, statistics.writesWithoutReplica());
        assertEquals(0, agent.holderObjectCount(), "a holder of an object this node does not hold is not remembered");
        request(2, 0x5678L);
        assertEquals(0, agent.holderObjectCount(), "nor a node asking for one");
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void shouldDropUpdatesBeyondTheInboxBoundAndTakeThemAgainOnceApplied() {
        agent();
        final GridShared grid = held(4);
        final int kept = (int)(INBOX_BYTES / 404);
        for (int version = 1; version <= 400; version++) {
            sendUpdate(1, grid.divvyReplica().id(), version, 20); // 404 bytes from the write count on
        }
        assertTrue(safePoints.queuedBytes() <= INBOX_BYTES, safePoints.queuedBytes() + " bytes queued");
        assertEquals(400 - kept, statistics.updatesOverBound(), "400 x 404 bytes against a 128 KiB bound");
        safePoints.safePoint();
        assertEquals(0, safePoints.queuedBytes());
        assertEquals(kept, grid.version(), "the last one kept");
        sendUpdate(1, grid.divvyReplica().id(), 401, 1);
        safePoints.safePoint();
        assertEquals(401, grid.version(), "room again once the workers applied the queue");
    }

    @Test
    void shouldKeepALargeFrameAsAViewNotACopy() {
        agent();
        final GridShared grid = held(4);
        final int count = 4000; // 80 KB: the transport hands such a frame over in a buffer of its own
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 + 20 * count);
        final int length = advances(buffer, grid.divvyReplica().id(), 5, count);
        deliver(SharedUpdateFlyweight.TYPE, 1, buffer, length);
        buffer.putInt(length - 4, 9, HeaderFlyweight.BYTE_ORDER); // the frame's own buffer, changed after the call
        safePoints.safePoint();
        assertEquals(9, grid.version(), "the workers read the frame itself");
        final int small = advances(buffer, grid.divvyReplica().id(), 6, 1);
        deliver(SharedUpdateFlyweight.TYPE, 1, buffer, small);
        buffer.putInt(small - 4, 7, HeaderFlyweight.BYTE_ORDER); // a small frame's buffer is the transport's: reused
        safePoints.safePoint();
        assertEquals(6, grid.version(), "a small frame is copied");
    }

    @Test
    void shouldForgetHoldersThatDiedWhenTheMemberListChanges() {
        agent();
        final GridShared grid = held(4);
        sendUpdate(3, grid.divvyReplica().id(), 1, 1);
        request(2, grid.divvyReplica().id());
        assertEquals(1, agent.holderObjectCount());
        alive.remove(3);
        alive.remove(2);
        epoch++;
        agent.doWork(nowNs);
        assertEquals(0, agent.holderObjectCount(), "the dead hold nothing");
    }

    @Test
    void shouldKeepOneRequestPerNodeAndObjectAndNotEncodeItAgainWhileTheQueueIsFull() {
        agent();
        final GridShared grid = held(1000); // 8 KB of state: a bulk frame
        sender.refuseAll = true;
        sender.queuedBulkBytes = 1 << 20;
        for (int i = 0; i < 5; i++) {
            request(1, grid.divvyReplica().id());
        }
        assertEquals(1, agent.unansweredCount(), "asked five times, answered once");
        assertEquals(1, sender.offered.size(), "encoded once");
        for (int i = 0; i < 10; i++) {
            agent.doWork(nowNs);
        }
        assertEquals(1, sender.offered.size(), "not encoded again while the node's queue is full");
        sender.refuseAll = false;
        sender.queuedBulkBytes = 0;
        agent.doWork(nowNs);
        assertEquals(0, agent.unansweredCount());
        assertEquals(2, sender.offered.size());
        assertEquals(1, statistics.replicasServed());
    }

    @Test
    void shouldCapTheRequestsWaitingForAnAnswer() {
        agent();
        sender.refuseAll = true;
        for (int i = 0; i < ReplicaServer.MAX_UNANSWERED + 10; i++) {
            request(1 + i % 3, i);
        }
        assertEquals(ReplicaServer.MAX_UNANSWERED, agent.unansweredCount());
        assertEquals(10, statistics.requestsDropped());
    }

    @Test
    void shouldAnswerNotHeldWhenTheStateIsLargerThanAFrame() {
        sender.maxFrameBytes = 4096;
        agent();
        final GridShared grid = held(1000); // 8 KB of state
        request(1, grid.divvyReplica().id());
        assertEquals(List.of(1), sender.offeredTo, "answered");
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        final byte[] answer = sender.offered.get(0);
        reply.wrap(new UnsafeBuffer(answer), 0, answer.length);
        assertFalse(reply.held(), "the requester asks another node");
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).getMessage().contains("maxMessageBytes"), errors.get(0).getMessage());
    }

    /** Steps the agent until {@code count} frames were sent (the codec thread encodes meanwhile). */
    private void stepUntilSent(final int count) {
        Await.within(Duration.ofSeconds(10)).stepping(this::stepAgent)
            .until(() -> sender.offered.size() >= count, "the answer encoded on the codec thread was sent");
    }

    private void stepAgent() {
        if (agent.doWork(nowNs) == 0) {
            LockSupport.parkNanos(100_000); // the codec thread is still encoding
        }
    }

    /**
     * A state larger than the agent encodes inline (64 KiB) is encoded on the codec thread, whole, and sent from there
     * as it is; refused by a full queue, the same frame is sent again, not encoded again. Before, the agent encoded it,
     * deaf to heartbeats for as long as that took.
     */
    @Test
    void shouldEncodeALargeStateOnTheCodecThreadAndSendTheSameFrameAgainWhenRefused() {
        agent();
        final GridShared grid = held(20_000); // 160 KB of state
        request(1, grid.divvyReplica().id());
        assertEquals(List.of(), sender.offeredTo, "handed to the codec thread: the request's handler encoded nothing");
        assertFalse(agent.isIdle(), "an answer is on its way");
        sender.refuseAll = true;
        stepUntilSent(1);
        sender.refuseAll = false;
        agent.doWork(nowNs);
        assertEquals(List.of(1, 1), sender.offeredTo, "refused once, then sent");
        assertTrue(java.util.Arrays.equals(sender.offered.get(0), sender.offered.get(1)), "the same frame, not encoded again");
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        final byte[] answer = sender.offered.get(1);
        reply.wrap(new UnsafeBuffer(answer), 0, answer.length);
        assertTrue(reply.isBodyWellFormed(answer.length));
        assertTrue(reply.held());
        assertEquals(grid.divvyReplica().id(), reply.objectId());
        final org.divvy.codegen.WireWriter expected = new org.divvy.codegen.WireWriter(256);
        assertTrue(grid.divvyReplica().tryWriteState(expected));
        assertEquals(expected.length(), reply.stateLength());
        final byte[] state = new byte[expected.length()];
        expected.buffer().getBytes(0, state);
        assertTrue(java.util.Arrays.equals(state, java.util.Arrays.copyOfRange(answer, ReplicaReplyFlyweight.STATE_OFFSET,
            answer.length)), "the replica's state");
        assertEquals(1, statistics.replicasServed());
        assertTrue(agent.isIdle());
        assertEquals(List.of(), errors);
    }

    @Test
    void shouldAnswerNotHeldWhenAStateEncodedOnTheCodecThreadIsLargerThanAFrame() {
        sender.maxFrameBytes = 100_000;
        agent();
        final GridShared grid = held(20_000); // 160 KB of state
        request(1, grid.divvyReplica().id());
        stepUntilSent(1);
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        final byte[] answer = sender.offered.get(0);
        reply.wrap(new UnsafeBuffer(answer), 0, answer.length);
        assertFalse(reply.held(), "the requester asks another node");
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).getMessage().contains("maxMessageBytes"), errors.get(0).getMessage());
        assertTrue(agent.isIdle());
    }

    /** Ships a write of {@code grid} with {@code longs} longs of arguments through the outbox, as a replica would. */
    private void write(final GridShared grid, final int longs) {
        final org.divvy.codegen.WireWriter arguments = outbox.beginShip(grid.divvyReplica(), 0);
        for (int i = 0; i < longs; i++) {
            arguments.writeLong(i);
        }
        outbox.endShip(grid.divvyReplica(), arguments, true);
    }

    @Test
    void shouldSendWhatFitsInFramesAndCountAndReportOnceAWriteLargerThanAMessage() {
        sender.maxFrameBytes = 4096;
        agent();
        final GridShared grid = held(4);
        write(grid, 1);
        write(grid, 600); // 4.8 KB: more than a frame carries
        write(grid, 300);
        write(grid, 300); // 2.4 KB each: one frame each
        agent.doWork(System.nanoTime() + TimeUnit.SECONDS.toNanos(1)); // past the combining delay
        final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
        final List<Integer> counts = new ArrayList<>();
        for (final byte[] sent : sender.broadcasts) {
            assertTrue(sent.length <= sender.maxFrameBytes, sent.length + " bytes");
            update.wrap(new UnsafeBuffer(sent), 0, sent.length);
            counts.add(update.count());
        }
        assertEquals(List.of(1, 1, 1), counts, "every write that fits went out, in order, as few frames as fit");
        assertEquals(1, statistics.writesTooLarge());
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).getMessage().contains("maxMessageBytes=4096"), errors.get(0).getMessage());
        write(grid, 600);
        agent.doWork(System.nanoTime() + TimeUnit.SECONDS.toNanos(1)); // past the combining delay
        assertEquals(2, statistics.writesTooLarge(), "counted");
        assertEquals(1, errors.size(), "reported once");
        assertTrue(statistics.toString().contains("2 too large to send"), statistics.toString());
    }
}
