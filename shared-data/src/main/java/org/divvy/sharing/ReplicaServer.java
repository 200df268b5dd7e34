package org.divvy.sharing;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Objects;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.divvy.DivvyException;
import org.divvy.agent.CodecInbox;
import org.divvy.agent.CodecThread;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MemberDirectory;
import org.divvy.agent.MessageHandler;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;

/**
 * The answering side of replica transfer: another node's SO_REPLICA_REQUEST is answered with the state of the replica
 * held here, through the generated codec, under a try-read (SO_REPLICA_REPLY; chunked by the transport when larger than
 * one message), or "not held". A request that cannot be answered now (a write holds the replica, the node's queue is
 * full) waits, one per (node, object), at most {@link #MAX_UNANSWERED} (beyond: dropped and counted; the requester asks
 * another node after its timeout); one refused for room is not encoded again until the node's bulk queue drained. A
 * state is encoded up to what one frame carries: larger, or a {@code writeState} that throws, is answered "not held"
 * and logged; nothing escapes the agent's cycle. A state larger than {@link CodecThread#INLINE_BYTES} is encoded on the
 * codec thread (under the replica's read lock, which may wait there for a write to end), straight into its own frame,
 * which is then sent as it is, never encoded again: a replica of hundreds of MB does not stop the agent, deaf to
 * heartbeats, while it is written. Agent thread, but for that encode.
 */
final class ReplicaServer {
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
        /** Its state is being encoded on the codec thread (the fields below are that thread's until it is polled back). */
        boolean encoding;
        /** The whole reply, encoded on the codec thread; sent as it is. */
        MutableDirectBuffer frame;
        int frameLength;
        /** Why the codec thread could not encode it: it is answered "not held". */
        Throwable failure;

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

    private final FrameSender sender;
    private final MemberDirectory members;
    private final ReplicaTable replicas;
    private final ReplicaHolders holders;
    private final SharingStatistics statistics;
    private final ErrorHandler errorHandler;
    private final ReplicaRequestFlyweight request = new ReplicaRequestFlyweight();
    private final ReplicaReplyFlyweight reply = new ReplicaReplyFlyweight();
    private final WireWriter state = new WireWriter(1024);
    private final CodecThread codec;
    private final int maxFrameBytes;
    /** Whether a state that outgrows {@link #state}'s limit is encoded again on the codec thread (it may fit a frame). */
    private final boolean largeOnCodecThread;
    /** Requests whose state the codec thread encoded (or failed to), back for the agent to send. */
    private final CodecInbox<Unanswered> encodedInbox = new CodecInbox<>(encoded -> {
        MessageHandler.releaseKept(encoded.frame); // encoded after the node closed: no duty will send it
        encoded.frame = null;
    });
    private int encodesInFlight;
    /** Requests whose replica a write held locked, or whose node's queue was full: answered in a later cycle, in order. */
    private final LinkedHashMap<Unanswered, Unanswered> unanswered = new LinkedHashMap<>();

    ReplicaServer(final FrameSender sender, final MemberDirectory members, final ReplicaTable replicas, final ReplicaHolders holders,
        final SharingStatistics statistics, final ErrorHandler errorHandler, final CodecThread codec) {
        this.codec = codec;
        this.maxFrameBytes = sender.maxFrameBytes();
        this.sender = sender;
        this.members = members;
        this.replicas = replicas;
        this.holders = holders;
        this.statistics = statistics;
        this.errorHandler = errorHandler;
        // a state is sent in one frame; on the agent thread its encode stops at what takes tens of microseconds
        final int stateMaxBytes = maxFrameBytes - ReplicaReplyFlyweight.STATE_OFFSET;
        largeOnCodecThread = stateMaxBytes > CodecThread.INLINE_BYTES;
        state.limit(Math.min(stateMaxBytes, CodecThread.INLINE_BYTES));
    }

    boolean isIdle() {
        return unanswered.isEmpty() && encodesInFlight == 0;
    }

    int unansweredCount() {
        return unanswered.size();
    }

    /** The handler of SO_REPLICA_REQUEST. */
    int onReplicaRequest(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        request.wrap(buffer, offset, length);
        final long id = request.objectId();
        if (replicas.get(id) != null) {
            holders.add(id, senderId); // it will hold one once answered
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

    /** Answers the requests that waited, in order, as far as it can now (those encoded on the codec thread included). */
    int answerPending() {
        int work = 0;
        Unanswered encoded;
        while ((encoded = encodedInbox.poll()) != null) {
            encodesInFlight--;
            encoded.encoding = false;
            if (encoded.failure != null) {
                reportUnencodable(replicas.get(encoded.objectId), encoded.failure); // it is answered "not held"
            }
            final Unanswered waiting = unanswered.putIfAbsent(encoded, encoded); // it waits there (even past the bound)
            if (waiting != null && waiting != encoded) {
                // dropped at the bound while it encoded, and asked again since: the newer request answers
                MessageHandler.releaseKept(encoded.frame);
                encoded.frame = null;
            }
            work++;
        }
        if (unanswered.isEmpty()) {
            return work;
        }
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

    /**
     * The node closes (its codec thread has stopped): the replies encoded and not sent, those the codec thread handed
     * back and those waiting for their node's queue, give their frames back; so does one whose encode outlasted the
     * codec thread's close, when it comes back to the closed inbox.
     */
    void onAgentClose() {
        Unanswered encoded;
        while ((encoded = encodedInbox.poll()) != null) {
            encodesInFlight--;
            encoded.encoding = false;
            MessageHandler.releaseKept(encoded.frame);
            encoded.frame = null;
        }
        for (final Unanswered pending : unanswered.keySet()) {
            if (!pending.encoding) { // one still encoding has no frame yet: dropped, or the closed inbox frees it
                MessageHandler.releaseKept(pending.frame);
                pending.frame = null;
            }
        }
        unanswered.clear();
        encodedInbox.close();
    }

    /**
     * Sends the replica (or "not held"); false when a write holds it locked or the queue to the node is full. A state
     * that does not fit in a frame, or whose encode fails, is answered "not held": the requester asks another node.
     */
    private boolean answer(final Unanswered pending) {
        final int nodeId = pending.nodeId;
        final long id = pending.objectId;
        if (pending.encoding) {
            return false; // its state is being encoded on the codec thread, which owns its frame until it is back
        }
        if (members.aliveEndpoint(nodeId) == null) {
            if (pending.frame != null) {
                MessageHandler.releaseKept(pending.frame); // encoded for it, never handed over: an off-heap frame is freed
                pending.frame = null;
            }
            return true; // gone: nobody to answer
        }
        if (pending.frame != null) {
            return sendEncoded(pending);
        }
        final ReplicaCore core = replicas.get(id);
        boolean held = core != null && !core.isAwaitingState() && pending.failure == null;
        state.reset();
        if (held) {
            try {
                if (!core.tryWriteState(state)) {
                    return false;
                }
            } catch (final WireLimitException tooLarge) {
                if (largeOnCodecThread) {
                    pending.encoding = true;
                    encodesInFlight++;
                    codec.submit(() -> encodeOnCodecThread(pending, core), () -> { }); // dropped: no frame made yet
                    return false;
                }
                held = false;
                reportUnencodable(core, tooLarge);
            } catch (final RuntimeException e) {
                held = false;
                reportUnencodable(core, e);
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

    /** Sends a reply the codec thread encoded; false when the node's queue refused it (sent again later, as it is). */
    private boolean sendEncoded(final Unanswered pending) {
        if (!sender.sendOwnedTo(pending.nodeId, pending.frame, pending.frameLength)) {
            pending.refusedFrameLength = pending.frameLength;
            return false;
        }
        pending.frame = null;
        statistics.replicasServed.increment();
        return true;
    }

    /**
     * On the codec thread: the whole SO_REPLICA_REPLY, the state written in place into a buffer of exactly its size
     * (measured by a first pass through a {@link WireWriter#sizer()}), both passes under one read lock so they agree.
     */
    private void encodeOnCodecThread(final Unanswered pending, final ReplicaCore core) {
        MutableDirectBuffer out = null;
        try {
            final WireWriter sizer = WireWriter.sizer().limit(maxFrameBytes).skip(ReplicaReplyFlyweight.STATE_OFFSET);
            final WireWriter writer;
            final int token = core.readLock();
            try {
                core.type().writeState(sizer, core.replica());
                out = sender.ownFrame(sizer.length()); // off the heap when large: the JVM zeroes no big array for it
                writer = WireWriter.into(out).limit(maxFrameBytes).skip(ReplicaReplyFlyweight.STATE_OFFSET);
                core.type().writeState(writer, core.replica());
            } finally {
                core.readUnlock(token);
            }
            final ReplicaReplyFlyweight frame = new ReplicaReplyFlyweight();
            frame.wrap(out, 0, writer.length());
            frame.headerDefaults(ReplicaReplyFlyweight.TYPE);
            frame.start(pending.objectId, true, writer.length() - ReplicaReplyFlyweight.STATE_OFFSET);
            pending.frame = out;
            pending.frameLength = writer.length();
        } catch (final Throwable t) { // OutOfMemoryError included: answered "not held", the requester asks another
            MessageHandler.releaseKept(out); // an off-heap frame is freed
            pending.failure = t;
        }
        encodedInbox.add(pending);
    }

    private void reportUnencodable(final Object core, final Throwable failure) {
        errorHandler.onError(failure instanceof WireLimitException
            ? new DivvyException("the replica state of " + core + " is larger than a message can carry (" + maxFrameBytes
                + " bytes, maxMessageBytes): answered as not held")
            : new DivvyException("the replica state of " + core + " could not be written: " + failure, failure));
    }
}
