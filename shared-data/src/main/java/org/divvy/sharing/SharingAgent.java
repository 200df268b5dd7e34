package org.divvy.sharing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MemberDirectory;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.WireWriter;
import org.divvy.extension.ExtensionContext;

/**
 * The agent's side of shared objects: broadcasts the combined writes (SO_UPDATE), queues the writes that
 * arrive for the workers' safe points, and moves replicas: it asks for the ones this node needs
 * (SO_REPLICA_REQUEST, to the node the job came from; to another node known to hold the object when that
 * one is gone, holds none, or does not answer within {@code replicaFetchTimeoutMs}) and answers others'
 * requests with the state through the generated codec (SO_REPLICA_REPLY; chunked by the transport when
 * larger than one message). All state here belongs to the agent thread.
 */
final class SharingAgent implements Duty {
    /** A replica being fetched: who was asked, when to give up on them, who was asked already. */
    private static final class Fetch {
        final ReplicaCore core;
        final IntArrayList asked = new IntArrayList();
        int target = -1;
        long deadlineNs;

        Fetch(final ReplicaCore core) {
            this.core = core;
        }
    }

    private final FrameSender sender;
    private final MemberDirectory members;
    private final ReplicaTable replicas;
    private final WriteOutbox outbox;
    private final SafePoints safePoints;
    private final SharingStatistics statistics;
    private final long combiningDelayNs;
    private final long fetchTimeoutNs;
    private final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
    private final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
    private final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
    private final WireWriter state = new WireWriter(1024);
    private final Map<Long, Fetch> fetches = new HashMap<>();
    /** Nodes known to hold a replica of an object: they sent writes to it or asked for it. */
    private final Map<Long, IntArrayList> holders = new HashMap<>();
    /** Requests whose replica a write held locked: answered in a later cycle. */
    private final ArrayDeque<long[]> unanswered = new ArrayDeque<>();
    /** The current cycle's clock reading, for handlers. */
    private long cycleNowNs;
    /** Tests: how many SO_UPDATEs to drop on arrival, as if lost. */
    private final AtomicInteger updatesToDrop = new AtomicInteger();

    SharingAgent(final ExtensionContext context, final ReplicaTable replicas, final WriteOutbox outbox, final SafePoints safePoints,
        final SharingStatistics statistics) {
        this.sender = context.sender();
        this.members = context.members();
        this.replicas = replicas;
        this.outbox = outbox;
        this.safePoints = safePoints;
        this.statistics = statistics;
        this.combiningDelayNs = context.config().sharedWriteCombiningMs() * 1_000_000L;
        this.fetchTimeoutNs = context.config().replicaFetchTimeoutMs() * 1_000_000L;
    }

    void register(final ExtensionContext context) {
        context.register(SharedUpdateFlyweight.TYPE, "SO_UPDATE", new SharedUpdateFlyweight(), SharedUpdateFlyweight.MIN_BODY_LENGTH,
            this::onUpdate);
        context.register(ReplicaRequestFlyweight.TYPE, "SO_REPLICA_REQUEST", new ReplicaRequestFlyweight(),
            ReplicaRequestFlyweight.MIN_BODY_LENGTH, this::onReplicaRequest);
        context.register(ReplicaReplyFlyweight.TYPE, "SO_REPLICA_REPLY", new ReplicaReplyFlyweight(),
            ReplicaReplyFlyweight.MIN_BODY_LENGTH, this::onReplicaReply);
    }

    void dropNextUpdates(final int count) {
        updatesToDrop.addAndGet(count);
    }

    boolean isIdle() {
        return fetches.isEmpty() && unanswered.isEmpty() && !replicas.hasFetchesQueued();
    }

    @Override
    public int doWork(final long nowNs) {
        cycleNowNs = nowNs;
        int work = broadcastWrites(nowNs);
        ReplicaCore core;
        while ((core = replicas.pollFetch()) != null) {
            work += startFetch(core, nowNs);
        }
        work += retryFetches(nowNs);
        for (int i = unanswered.size(); i > 0; i--) {
            final long[] pending = unanswered.poll();
            work += answer((int)pending[0], pending[1]) ? 1 : 0;
        }
        return work;
    }

    // ---- writes -------------------------------------------------------------------------------------

    private int broadcastWrites(final long nowNs) {
        final int count = outbox.take(nowNs, combiningDelayNs);
        if (count == 0) {
            return 0;
        }
        final int length = outbox.takenLength();
        final long frameLength = (long)SharedUpdateFlyweight.WRITES_OFFSET + length;
        if (frameLength > sender.maxFrameBytes()) {
            return 0; // larger than any message: best effort, the guards repair what is lost (never with the default 1 GiB)
        }
        final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
        update.wrap(frame, 0, frame.capacity());
        update.headerDefaults(SharedUpdateFlyweight.TYPE);
        final int sent = update.putWrites(count, outbox.taken(), length);
        final int peers = sender.broadcast(sent);
        statistics.updateBroadcasts.increment();
        statistics.updateMessages.add(peers);
        statistics.updateBytes.add((long)peers * sent);
        return 1;
    }

    private int onUpdate(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        update.wrap(buffer, offset, length);
        if (updatesToDrop.get() > 0 && updatesToDrop.getAndDecrement() > 0) {
            statistics.updatesDropped.increment();
            return 1;
        }
        final int count = update.count();
        int at = SharedUpdateFlyweight.WRITES_OFFSET;
        for (int i = 0; i < count; i++) {
            holder(update.objectId(at), senderId);
            at = update.next(at);
        }
        statistics.writesReceived.add(count);
        final byte[] writes = new byte[length - SharedUpdateFlyweight.COUNT_OFFSET];
        buffer.getBytes(offset + SharedUpdateFlyweight.COUNT_OFFSET, writes);
        safePoints.addUpdate(writes);
        return 1;
    }

    private void holder(final long objectId, final int nodeId) {
        final IntArrayList nodes = holders.computeIfAbsent(objectId, k -> new IntArrayList());
        if (!nodes.containsInt(nodeId)) {
            nodes.addInt(nodeId);
        }
    }

    // ---- replicas -----------------------------------------------------------------------------------

    private int startFetch(final ReplicaCore core, final long nowNs) {
        if (fetches.containsKey(core.id())) {
            return 0; // asked already: one answer serves every job waiting for it
        }
        final Fetch fetch = new Fetch(core);
        fetches.put(core.id(), fetch);
        statistics.replicaFetches.increment();
        askNext(fetch, nowNs);
        return 1;
    }

    /** Asks the job's source first, then known holders, then any other member; none left: the waiting jobs run as they are. */
    private void askNext(final Fetch fetch, final long nowNs) {
        final List<Integer> candidates = new ArrayList<>();
        candidates.add(fetch.core.sourceNodeId());
        final IntArrayList known = holders.get(fetch.core.id());
        if (known != null) {
            for (int i = 0; i < known.size(); i++) {
                candidates.add(known.getInt(i));
            }
        }
        for (final int other : members.aliveOthers()) {
            candidates.add(other);
        }
        for (final int candidate : candidates) {
            if (candidate < 0 || candidate == members.selfId() || fetch.asked.containsInt(candidate)
                || members.aliveEndpoint(candidate) == null) {
                continue;
            }
            fetch.asked.addInt(candidate);
            final MutableDirectBuffer frame = sender.frameBuffer(ReplicaRequestFlyweight.FRAME_LENGTH);
            request.wrap(frame, 0, frame.capacity());
            request.headerDefaults(ReplicaRequestFlyweight.TYPE);
            request.objectId(fetch.core.id());
            if (sender.sendTo(candidate, ReplicaRequestFlyweight.FRAME_LENGTH)) {
                fetch.target = candidate;
                fetch.deadlineNs = nowNs + fetchTimeoutNs;
                return;
            }
        }
        fetches.remove(fetch.core.id());
        fetch.core.awaitingState(false); // no node left to ask: best effort, the guard said what it could
    }

    private int retryFetches(final long nowNs) {
        if (fetches.isEmpty()) {
            return 0;
        }
        int work = 0;
        for (final Fetch fetch : new ArrayList<>(fetches.values())) {
            if (nowNs - fetch.deadlineNs > 0 || members.aliveEndpoint(fetch.target) == null) {
                statistics.replicaFetchRetries.increment();
                askNext(fetch, nowNs);
                work++;
            }
        }
        return work;
    }

    private int onReplicaRequest(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        request.wrap(buffer, offset, length);
        final long id = request.objectId();
        holder(id, senderId);
        if (!answer(senderId, id)) {
            unanswered.add(new long[] {senderId, id});
        }
        return 1;
    }

    /** Sends the replica (or "not held"); false when a write holds it locked or the queue to the node is full. */
    private boolean answer(final int nodeId, final long id) {
        if (members.aliveEndpoint(nodeId) == null) {
            return true; // gone: nobody to answer
        }
        final ReplicaCore core = replicas.get(id);
        final boolean held = core != null && !core.isAwaitingState();
        state.reset();
        if (held && !core.tryWriteState(state)) {
            return false;
        }
        final int stateLength = held ? state.length() : 0;
        final long frameLength = (long)ReplicaReplyFlyweight.STATE_OFFSET + stateLength;
        if (frameLength > sender.maxFrameBytes()) {
            return true; // cannot travel: the requester asks another node, then runs its jobs on what it has
        }
        final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
        reply.wrap(frame, 0, frame.capacity());
        reply.headerDefaults(ReplicaReplyFlyweight.TYPE);
        reply.start(id, held, stateLength);
        if (held) {
            frame.putBytes(ReplicaReplyFlyweight.STATE_OFFSET, state.buffer(), 0, stateLength);
            statistics.replicasServed.increment();
        }
        return sender.sendTo(nodeId, (int)frameLength);
    }

    private int onReplicaReply(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        reply.wrap(buffer, offset, length);
        final long id = reply.objectId();
        final Fetch fetch = fetches.get(id);
        if (fetch == null || fetch.target != senderId) {
            return 0; // late: answered by another node already, or not asked for
        }
        if (!reply.held()) {
            askNext(fetch, cycleNowNs);
            statistics.replicaFetchRetries.increment();
            return 1;
        }
        fetches.remove(id);
        final byte[] bytes = new byte[reply.stateLength()];
        buffer.getBytes(offset + ReplicaReplyFlyweight.STATE_OFFSET, bytes);
        statistics.replicasReceived.increment();
        statistics.replicaBytesReceived.add(bytes.length);
        holder(id, senderId);
        safePoints.addState(fetch.core, bytes);
        return 1;
    }
}
