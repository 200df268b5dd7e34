package org.divvy.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.MemberDirectory;
import org.divvy.codegen.WireWriter;
import org.divvy.extension.ExtensionContext;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.Scheduler;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's side of replica fetches, stepped on the test thread with a hand-advanced clock and a recording sender:
 * the job's source is asked first; a source that dies, answers "not held" or stays silent past the timeout is
 * replaced by another node; the state that arrives is applied at the next safe point; requests are answered.
 */
@Timeout(30)
class ReplicaFetchTest {
    private static final long TIMEOUT_MS = 100;

    /** Members 0 (this node) to 3; a test kills some. */
    private final TreeSet<Integer> alive = new TreeSet<>(List.of(0, 1, 2, 3));
    private final MemberDirectory members = new MemberDirectory() {
        @Override
        public int selfId() {
            return 0;
        }

        @Override
        public int epoch() {
            return 1;
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
            return alive.contains(senderId) ? MEMBER : DEAD;
        }
    };

    private final RecordingFrameSender sender = new RecordingFrameSender().withMaxFrameBytes(1 << 30);
    private final CodecThread codec = new CodecThread("sharing-test-codec", Throwable::printStackTrace);

    private final List<Throwable> errors = new ArrayList<>();
    private final FrameDispatcher dispatcher = new FrameDispatcher(new FrameCounters(), members, errors::add);
    private final SharingStatistics statistics = new SharingStatistics();
    private final WriteOutbox outbox = new WriteOutbox(statistics, () -> { });
    private final ReplicaTable replicas = new ReplicaTable(outbox, () -> { });
    private final SafePoints safePoints = new SafePoints(replicas, statistics, errors::add, 0, true, TimeUnit.SECONDS.toNanos(10), 1L << 30,
        () -> { });
    private final SharingAgent agent;
    private long nowNs = 1_000_000_000L;

    ReplicaFetchTest() {
        final NodeConfig config = NodeConfig.builder().networked(true).workers(1).replicaFetchTimeoutMs(TIMEOUT_MS).build();
        final ExtensionContext context = new ExtensionContext(config, dispatcher, sender, members, new Scheduler(config, "test"),
            errors::add, () -> { }, codec);
        agent = new SharingAgent(context, replicas, outbox, safePoints, statistics);
        agent.register(context);
    }

    private int lastTarget() {
        return sender.offeredTo.get(sender.offeredTo.size() - 1);
    }

    private void deliver(final int type, final int senderId, final MutableDirectBuffer body, final int length) {
        body.putByte(HeaderFlyweight.VERSION_OFFSET, (byte)HeaderFlyweight.CURRENT_VERSION);
        body.putByte(HeaderFlyweight.TYPE_OFFSET, (byte)type);
        body.putInt(HeaderFlyweight.SENDER_ID_OFFSET, senderId, HeaderFlyweight.BYTE_ORDER);
        body.putInt(HeaderFlyweight.EPOCH_OFFSET, 1, HeaderFlyweight.BYTE_ORDER);
        body.putInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, length, HeaderFlyweight.BYTE_ORDER);
        dispatcher.onFrame(type, body, 0, length);
    }

    private void reply(final int from, final long objectId, final byte[] state) {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        reply.wrap(buffer, 0, buffer.capacity());
        reply.start(objectId, state != null, state == null ? 0 : state.length);
        if (state != null) {
            buffer.putBytes(ReplicaReplyFlyweight.STATE_OFFSET, state);
        }
        deliver(ReplicaReplyFlyweight.TYPE, from, buffer, ReplicaReplyFlyweight.STATE_OFFSET + (state == null ? 0 : state.length));
    }

    @AfterEach
    void closeCodecThread() {
        codec.close();
    }

    @Test
    void shouldAskTheSourceThenAnotherNodeWhenTheSourceDiesHoldsNoneOrStaysSilent() {
        final GridShared original = new GridShared(16);
        original.advance(4);
        final long id = original.divvyReplica().id();
        final GridShared replica = (GridShared)replicas.resolve(id, GridShared.TYPE, 2);
        assertTrue(replica.divvyReplica().isAwaitingState());

        agent.doWork(nowNs);
        assertEquals(2, lastTarget(), "the job's source is asked first");
        alive.remove(2);
        agent.doWork(nowNs += 1_000_000);
        assertEquals(1, lastTarget(), "its death sends the fetch to another node");
        reply(1, id, null);
        assertEquals(3, lastTarget(), "a node that holds none sends it on");
        agent.doWork(nowNs += TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS) - 1);
        assertEquals(3, sender.offeredTo.size(), "not before the timeout");
        agent.doWork(nowNs += 2);
        assertEquals(1, statistics.replicaFetches());
        assertFalse(replica.divvyReplica().isAwaitingState(), "nobody left to ask: the jobs run on what is here");
        assertEquals(3, statistics.replicaFetchRetries());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void shouldApplyTheFetchedStateAtTheNextSafePoint() {
        final GridShared original = new GridShared(16);
        original.advance(4);
        final long id = original.divvyReplica().id();
        final GridShared replica = (GridShared)replicas.resolve(id, GridShared.TYPE, 1);
        agent.doWork(nowNs);
        final WireWriter state = new WireWriter();
        assertTrue(original.divvyReplica().tryWriteState(state));
        reply(1, id, state.toByteArray());
        assertTrue(replica.divvyReplica().isAwaitingState(), "applied at a safe point, not by the agent");
        safePoints.safePoint();
        assertFalse(replica.divvyReplica().isAwaitingState());
        assertEquals(4, replica.version());
        assertEquals(original.sum(0, 16), replica.sum(0, 16));
        reply(1, id, state.toByteArray());
        assertTrue(safePoints.isEmpty(), "a late second answer is dropped");
    }

    @Test
    void shouldAnswerARequestWithTheStateOrNotHeld() {
        final GridShared mine = new GridShared(16);
        mine.advance(3);
        replicas.attach(mine.divvyReplica());
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
        request.wrap(buffer, 0, buffer.capacity());
        request.objectId(mine.divvyReplica().id());
        deliver(ReplicaRequestFlyweight.TYPE, 3, buffer, ReplicaRequestFlyweight.FRAME_LENGTH);
        assertEquals(3, lastTarget());
        final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
        byte[] answer = sender.offered.get(sender.offered.size() - 1);
        reply.wrap(new org.agrona.concurrent.UnsafeBuffer(answer), 0, answer.length);
        assertTrue(reply.held());
        assertEquals(mine.divvyReplica().id(), reply.objectId());
        assertEquals(1, statistics.replicasServed());

        request.objectId(12345L);
        deliver(ReplicaRequestFlyweight.TYPE, 3, buffer, ReplicaRequestFlyweight.FRAME_LENGTH);
        answer = sender.offered.get(sender.offered.size() - 1);
        reply.wrap(new org.agrona.concurrent.UnsafeBuffer(answer), 0, answer.length);
        assertFalse(reply.held(), "an object this node has no replica of");
    }
}
