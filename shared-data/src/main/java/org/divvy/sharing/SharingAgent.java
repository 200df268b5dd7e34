package org.divvy.sharing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MemberDirectory;
import org.divvy.agent.MessageHandler;
import org.divvy.codegen.ReplicaCore;
import org.divvy.extension.ExtensionContext;
import org.divvy.protocol.HeaderFlyweight;

/**
 * The agent's side of shared objects: broadcasts the combined writes (SO_UPDATE), queues the writes that
 * arrive for the workers' safe points, and fetches the replicas this node needs (SO_REPLICA_REQUEST, to the
 * node the job came from; to another node known to hold the object when that one is gone, holds none, or does
 * not answer within {@code replicaFetchTimeoutMs}; the state comes back as SO_REPLICA_REPLY). Answering
 * others' requests is {@link ReplicaServer}'s; who holds what, {@link ReplicaHolders}'. All state here belongs
 * to the agent thread.
 *
 * <p>Bounds: a member can send any number of SO_UPDATEs and requests, so what this agent keeps for them is
 * bounded: writes to objects this node holds no replica of are dropped on arrival, the queued writes by
 * {@code maxSharedInboxBytes} (beyond it dropped and counted: writes are best effort, guards repair), the holders
 * it remembers ({@link ReplicaHolders}) and the requests it could not answer yet ({@link ReplicaServer}).
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
    private final ErrorHandler errorHandler;
    private final SharedUpdateFlyweight update = new SharedUpdateFlyweight();
    private final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
    private final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
    private final Map<Long, Fetch> fetches = new HashMap<>();
    private final ReplicaHolders holders;
    private final ReplicaServer server;
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
        this.holders = new ReplicaHolders(members);
        this.server = new ReplicaServer(sender, members, replicas, holders, statistics, errorHandler, context.codec());
    }

    void register(final ExtensionContext context) {
        context.register(SharedUpdateFlyweight.TYPE, "SO_UPDATE", new SharedUpdateFlyweight(), SharedUpdateFlyweight.MIN_BODY_LENGTH,
            this::onUpdate);
        context.register(ReplicaRequestFlyweight.TYPE, "SO_REPLICA_REQUEST", new ReplicaRequestFlyweight(),
            ReplicaRequestFlyweight.MIN_BODY_LENGTH, server::onReplicaRequest);
        context.register(ReplicaReplyFlyweight.TYPE, "SO_REPLICA_REPLY", new ReplicaReplyFlyweight(),
            ReplicaReplyFlyweight.MIN_BODY_LENGTH, this::onReplicaReply);
    }

    void dropNextUpdates(final int count) {
        updatesToDrop.addAndGet(count);
    }

    boolean isIdle() {
        return fetches.isEmpty() && server.isIdle() && !replicas.hasFetchesQueued();
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
        holders.onTick();
        work += server.answerPending();
        return work;
    }

    /**
     * The node closes: the replica answers not sent and the writes and states queued for the safe points give back
     * their frames (the agent and the codec thread have stopped; the safe points' are taken under their lock).
     */
    @Override
    public void onAgentClose() {
        server.onAgentClose();
        safePoints.releaseAll();
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

    /**
     * Queues a peer's writes for this node's safe points. Returns 0 whatever it did: a write received is not work of
     * the computation for deep idle (the poll that read it counts as the agent's work all the same). A write says
     * nothing about work to steal, and an idle node of a run kept awake by each write asked a random peer for work
     * every 10-20 ms for a second after it: 64 such nodes, written to every 1.5 s, kept ~1,300-1,700 publications and
     * ~4,600-5,000 images in four drivers (perf/README.md, "64 replicas: idle nodes hold their victims"). In deep idle
     * the agent still sees the run's frames within {@code deepIdleRunParkMs}, and the worker is woken for the write.
     */
    private int onUpdate(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        update.wrap(buffer, offset, length);
        if (updatesToDrop.get() > 0 && updatesToDrop.getAndDecrement() > 0) {
            statistics.updatesDropped.increment();
            return 0;
        }
        final int count = update.count();
        statistics.writesReceived.add(count);
        int held = 0;
        int at = SharedUpdateFlyweight.WRITES_OFFSET;
        for (int i = 0; i < count; i++) {
            final long id = update.objectId(at);
            if (replicas.get(id) != null) {
                held++;
                holders.add(id, senderId);
            }
            at = update.next(at);
        }
        if (held == 0) {
            statistics.writesWithoutReplica.add(count); // nothing here to apply them to: not kept
            return 0;
        }
        final int writesLength = length - SharedUpdateFlyweight.COUNT_OFFSET;
        if (!safePoints.hasRoomFor(writesLength)) {
            statistics.updatesOverBound.increment(); // the workers are behind: best effort, guards repair
            return 0;
        }
        safePoints.addUpdate(keep(buffer, offset + SharedUpdateFlyweight.COUNT_OFFSET, writesLength, length),
            length > MessageHandler.OWN_BUFFER_MIN_BYTES ? buffer : null);
        return 0;
    }

    /**
     * What is kept of a part of a frame for the workers: a view when the frame is large (the transport gave the handler
     * its own buffer, so the agent copies nothing), with a reference to the frame that {@link SafePoints} gives back
     * once it is applied; else a copy of at most 64 KiB.
     */
    private static DirectBuffer keep(final DirectBuffer buffer, final int at, final int partLength, final int frameLength) {
        if (frameLength > MessageHandler.OWN_BUFFER_MIN_BYTES) {
            MessageHandler.retainKept(buffer);
            return new UnsafeBuffer(buffer, at, partLength);
        }
        final byte[] copy = new byte[partLength];
        buffer.getBytes(at, copy);
        return new UnsafeBuffer(copy);
    }

    int holderObjectCount() {
        return holders.objectCount();
    }

    int unansweredCount() {
        return server.unansweredCount();
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
        final IntArrayList known = holders.of(fetch.core.id());
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
        holders.add(id, senderId);
        safePoints.addState(fetch.core, keep(buffer, offset + ReplicaReplyFlyweight.STATE_OFFSET, stateLength, length),
            length > MessageHandler.OWN_BUFFER_MIN_BYTES ? buffer : null);
        return 1;
    }
}
