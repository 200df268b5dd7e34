package org.divvy.sharing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.ErrorHandler;
import org.divvy.DivvyException;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MemberDirectory;
import org.divvy.agent.MessageHandler;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;
import org.divvy.extension.ExtensionContext;
import org.divvy.protocol.HeaderFlyweight;

/**
 * The agent's side of shared objects: broadcasts the combined writes (SO_UPDATE), queues the writes that
 * arrive for the workers' safe points, and moves replicas: it asks for the ones this node needs
 * (SO_REPLICA_REQUEST, to the node the job came from; to another node known to hold the object when that
 * one is gone, holds none, or does not answer within {@code replicaFetchTimeoutMs}) and answers others'
 * requests with the state through the generated codec (SO_REPLICA_REPLY; chunked by the transport when
 * larger than one message). All state here belongs to the agent thread.
 *
 * <p>Bounds: a member can send any number of SO_UPDATEs and requests, so what this agent keeps for them is
 * bounded: writes to objects this node holds no replica of are dropped on arrival, the queued writes by
 * {@code maxSharedInboxBytes} (beyond it dropped and counted: writes are best effort, guards repair), the holders
 * it remembers (objects held here, alive nodes, {@link #HOLDERS_PER_OBJECT} each) and the requests it could not
 * answer yet (one per node and object, {@link #MAX_UNANSWERED} in all).
 */
final class SharingAgent implements Duty {
    /** Holders remembered per object: enough to ask a few others when the source fails; then any member is asked. */
    static final int HOLDERS_PER_OBJECT = 8;
    /** Requests waiting for a write to end or for room towards their node; beyond it a request is dropped (it asks another). */
    static final int MAX_UNANSWERED = 1024;
    /** A state no larger than this travels as a control frame, which a full bulk queue does not hold back. */
    private static final int CONTROL_FRAME_BYTES = 1024;

    /** A request not answered yet: by node and object (equal ones are one), and the state's length when last refused. */
    private static final class Unanswered {
        final int nodeId;
        final long objectId;
        /** The frame's length when the transport last refused it (0: not refused, or a write held the replica). */
        long refusedFrameLength;

        Unanswered(final int nodeId, final long objectId) {
            this.nodeId = nodeId;
            this.objectId = objectId;
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof Unanswered u && u.nodeId == nodeId && u.objectId == objectId;
        }

        @Override
        public int hashCode() {
            return Objects.hash(nodeId, objectId);
        }
    }

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
    private final ErrorHandler errorHandler;
    private final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
    private final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
    private final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
    private final WireWriter state = new WireWriter(1024);
    private final Map<Long, Fetch> fetches = new HashMap<>();
    /**
     * Alive nodes known to hold a replica of an object held here: they sent writes to it, asked for it, or sent it.
     * Dead members are removed when the member list changes.
     */
    private final Map<Long, IntArrayList> holders = new HashMap<>();
    /** The member list's epoch {@link #holders} was last pruned at. */
    private int holdersEpoch;
    /** Requests whose replica a write held locked, or whose node's queue was full: answered in a later cycle, in order. */
    private final LinkedHashMap<Unanswered, Unanswered> unanswered = new LinkedHashMap<>();
    /** Whether a write too large to send was reported (once per node: the count says how many followed). */
    private boolean reportedTooLarge;
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
        this.errorHandler = context.errorHandler();
        // a state is sent in one frame: the encode stops at what the transport can send, before it grows further
        state.limit(sender.maxFrameBytes() - ReplicaReplyFlyweight.STATE_OFFSET);
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
        if (members.epoch() != holdersEpoch) {
            holdersEpoch = members.epoch();
            forgetDeadHolders();
        }
        work += answerPending();
        return work;
    }

    private int answerPending() {
        if (unanswered.isEmpty()) {
            return 0;
        }
        int work = 0;
        for (final Iterator<Unanswered> it = unanswered.keySet().iterator(); it.hasNext(); ) {
            final Unanswered pending = it.next();
            if (pending.refusedFrameLength > CONTROL_FRAME_BYTES && sender.queuedBulkBytesTo(pending.nodeId) > 0) {
                continue; // refused for room: not encoded again until the node's queue drained
            }
            if (answer(pending)) {
                it.remove();
                work++;
            }
        }
        return work;
    }

    // ---- writes -------------------------------------------------------------------------------------

    private int broadcastWrites(final long nowNs) {
        final int count = outbox.take(nowNs, combiningDelayNs);
        if (count == 0) {
            return 0;
        }
        // the writes of a batch go in as few frames as fit: a write larger than a frame alone is not sent
        final MutableDirectBuffer taken = outbox.taken();
        final int length = outbox.takenLength();
        final long room = (long)sender.maxFrameBytes() - SharedUpdateFlyweight.WRITES_OFFSET;
        int start = 0;
        int at = 0;
        int inFrame = 0;
        while (at < length) {
            final int writeLength = SharedUpdateFlyweight.WRITE_HEADER_LENGTH + taken.getInt(at + 12, HeaderFlyweight.BYTE_ORDER);
            if (writeLength > room) {
                broadcast(taken, start, at - start, inFrame);
                tooLarge(taken, at, writeLength);
                at += writeLength;
                start = at;
                inFrame = 0;
                continue;
            }
            if (at + writeLength - start > room) {
                broadcast(taken, start, at - start, inFrame);
                start = at;
                inFrame = 0;
            }
            at += writeLength;
            inFrame++;
        }
        broadcast(taken, start, at - start, inFrame);
        return 1;
    }

    private void broadcast(final MutableDirectBuffer writes, final int offset, final int length, final int count) {
        if (count == 0) {
            return;
        }
        final MutableDirectBuffer frame = sender.frameBuffer((long)SharedUpdateFlyweight.WRITES_OFFSET + length);
        update.wrap(frame, 0, frame.capacity());
        update.headerDefaults(SharedUpdateFlyweight.TYPE);
        final int sent = update.putWrites(count, writes, offset, length);
        final int peers = sender.broadcast(sent);
        statistics.updateBroadcasts.increment();
        statistics.updateMessages.add(peers);
        statistics.updateBytes.add((long)peers * sent);
    }

    /** A write larger than any message: not sent (the other replicas miss it; their guards repair); counted, said once. */
    private void tooLarge(final MutableDirectBuffer writes, final int at, final int writeLength) {
        statistics.writesTooLarge.increment();
        if (!reportedTooLarge) {
            reportedTooLarge = true;
            final ReplicaCore core = replicas.get(writes.getLong(at, HeaderFlyweight.BYTE_ORDER));
            final int methodId = writes.getInt(at + 8, HeaderFlyweight.BYTE_ORDER);
            final String write = core == null ? "a write" : "write `" + core.type().writeName(methodId) + "` to " + core;
            errorHandler.onError(new DivvyException(write + " was not sent to the other replicas: with its arguments it takes "
                + writeLength + " bytes, more than a message carries (maxMessageBytes=" + sender.maxFrameBytes()
                + "); raise maxMessageBytes on every node (--max-message-bytes) or make the write's arguments smaller"
                + " (counted as writes too large to send; reported once)"));
        }
    }

    private int onUpdate(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        update.wrap(buffer, offset, length);
        if (updatesToDrop.get() > 0 && updatesToDrop.getAndDecrement() > 0) {
            statistics.updatesDropped.increment();
            return 1;
        }
        final int count = update.count();
        statistics.writesReceived.add(count);
        int held = 0;
        int at = SharedUpdateFlyweight.WRITES_OFFSET;
        for (int i = 0; i < count; i++) {
            final long id = update.objectId(at);
            if (replicas.get(id) != null) {
                held++;
                holder(id, senderId);
            }
            at = update.next(at);
        }
        if (held == 0) {
            statistics.writesWithoutReplica.add(count); // nothing here to apply them to: not kept
            return 1;
        }
        final int writesLength = length - SharedUpdateFlyweight.COUNT_OFFSET;
        if (!safePoints.hasRoomFor(writesLength)) {
            statistics.updatesOverBound.increment(); // the workers are behind: best effort, guards repair
            return 1;
        }
        safePoints.addUpdate(keep(buffer, offset + SharedUpdateFlyweight.COUNT_OFFSET, writesLength, length));
        return 1;
    }

    /**
     * What is kept of a part of a frame for the workers: a view when the frame is large (the transport gave the handler
     * its own buffer, so the agent copies nothing), else a copy of at most 64 KiB.
     */
    private static DirectBuffer keep(final DirectBuffer buffer, final int at, final int partLength, final int frameLength) {
        if (frameLength > MessageHandler.OWN_BUFFER_MIN_BYTES) {
            return new UnsafeBuffer(buffer, at, partLength);
        }
        final byte[] copy = new byte[partLength];
        buffer.getBytes(at, copy);
        return new UnsafeBuffer(copy);
    }

    /** Remembers {@code nodeId} as a holder of {@code objectId}, an object held or being fetched here. */
    private void holder(final long objectId, final int nodeId) {
        final IntArrayList nodes = holders.computeIfAbsent(objectId, k -> new IntArrayList(HOLDERS_PER_OBJECT, -1));
        if (nodes.size() < HOLDERS_PER_OBJECT && !nodes.containsInt(nodeId)) {
            nodes.addInt(nodeId);
        }
    }

    /** The member list changed: the dead and the departed hold nothing any more. */
    private void forgetDeadHolders() {
        for (final Iterator<IntArrayList> it = holders.values().iterator(); it.hasNext(); ) {
            final IntArrayList nodes = it.next();
            for (int i = nodes.size() - 1; i >= 0; i--) {
                if (members.aliveEndpoint(nodes.getInt(i)) == null) {
                    nodes.fastUnorderedRemove(i);
                }
            }
            if (nodes.isEmpty()) {
                it.remove();
            }
        }
    }

    int holderObjectCount() {
        return holders.size();
    }

    int unansweredCount() {
        return unanswered.size();
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
        if (replicas.get(id) != null) {
            holder(id, senderId); // it will hold one once answered
        }
        final Unanswered pending = new Unanswered(senderId, id);
        if (unanswered.containsKey(pending)) {
            return 0; // asked again while its answer waits: one answer serves both
        }
        if (!answer(pending)) {
            if (unanswered.size() >= MAX_UNANSWERED) {
                statistics.requestsDropped.increment(); // its node asks another after replicaFetchTimeoutMs
            } else {
                unanswered.put(pending, pending);
            }
        }
        return 1;
    }

    /**
     * Sends the replica (or "not held"); false when a write holds it locked or the queue to the node is full. A state
     * that does not fit in a frame, or whose encode fails, is answered "not held": the requester asks another node.
     */
    private boolean answer(final Unanswered pending) {
        final int nodeId = pending.nodeId;
        final long id = pending.objectId;
        if (members.aliveEndpoint(nodeId) == null) {
            return true; // gone: nobody to answer
        }
        final ReplicaCore core = replicas.get(id);
        boolean held = core != null && !core.isAwaitingState();
        state.reset();
        if (held) {
            try {
                if (!core.tryWriteState(state)) {
                    return false;
                }
            } catch (final WireLimitException tooLarge) {
                held = false;
                errorHandler.onError(new DivvyException("the replica state of " + core + " is larger than a message can carry ("
                    + sender.maxFrameBytes() + " bytes, maxMessageBytes): answered as not held"));
            } catch (final RuntimeException e) {
                held = false;
                errorHandler.onError(new DivvyException("the replica state of " + core + " could not be written: " + e, e));
            }
        }
        final int stateLength = held ? state.length() : 0;
        final int frameLength = ReplicaReplyFlyweight.STATE_OFFSET + stateLength;
        final MutableDirectBuffer frame = sender.frameBuffer(frameLength);
        reply.wrap(frame, 0, frame.capacity());
        reply.headerDefaults(ReplicaReplyFlyweight.TYPE);
        reply.start(id, held, stateLength);
        if (held) {
            frame.putBytes(ReplicaReplyFlyweight.STATE_OFFSET, state.buffer(), 0, stateLength);
        }
        if (!sender.sendTo(nodeId, frameLength)) {
            pending.refusedFrameLength = frameLength;
            return false;
        }
        if (held) {
            statistics.replicasServed.increment();
        }
        return true;
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
        final int stateLength = reply.stateLength();
        statistics.replicasReceived.increment();
        statistics.replicaBytesReceived.add(stateLength);
        holder(id, senderId);
        safePoints.addState(fetch.core, keep(buffer, offset + ReplicaReplyFlyweight.STATE_OFFSET, stateLength, length));
        return 1;
    }
}
