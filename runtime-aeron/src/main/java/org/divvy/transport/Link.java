package org.divvy.transport;

import java.util.ArrayDeque;
import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableRingBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.bulk.SlicedCopy;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.security.FrameAuthenticator;

import io.aeron.Aeron;
import io.aeron.DirectBufferVector;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;

/**
 * The way to one peer endpoint: its {@link ExclusivePublication}, created on the first send, and two
 * bounded queues of messages not yet accepted by it (peer not connected yet, back pressure, admin action):
 * one for control frames (at most {@link #CONTROL_MAX_FRAME_BYTES}: heartbeats, member lists, steal requests,
 * small results), with a budget of its own ({@link #CONTROL_QUEUE_BYTES}), and one for bulk messages, bounded
 * by {@code maxBulkBytes} ({@code maxOutboundBytesPerPeer}). Control goes first: a queued control frame is
 * offered before any more bulk data in every duty cycle, also between the chunks of a large message, so a
 * heartbeat never waits behind megabytes queued for the same peer (it did: a peer declared the registry
 * silent), and a full bulk queue never refuses a heartbeat. Messages of one kind leave in the order they
 * were sent; a control frame may overtake bulk data. A message above the publication's maximum message
 * length goes out as {@link ChunkFlyweight CHUNK} frames; a partly sent message remembers its next chunk,
 * so back pressure in the middle of a large message resumes where it stopped.
 *
 * <p>A queued bulk message is a copy, unless the sender handed the buffer over ({@link #send} with
 * {@code owned}): large messages, encoded off the agent thread into a buffer of their own, are never copied.
 * A copy is an {@link OffHeapFrame} (a {@code new byte[]} of hundreds of MB would be zeroed by the JVM in one step,
 * holding every safepoint), made in slices ({@link SlicedCopy}). An {@link OffHeapFrame} handed over comes with one
 * reference, the link's, given back once the publication took all of it or the link dropped it.
 * Every Aeron message (a whole frame, or one chunk) is signed by the {@link FrameAuthenticator} at the
 * moment it is offered, and carries its trailer; its sequence number is used up only when the publication
 * takes it, so the numbers reach the peer in order and without holes, and a hole means a loss. A publication
 * closed for being idle does not end the stream: the next one goes on with its numbers, behind a
 * {@link StreamContinuesFlyweight STREAM_CONTINUES} (see {@link #closeIfIdle}).
 *
 * <p>Owned by the network agent thread.
 */
final class Link {
    /**
     * The frame type of a stream probe (25, STREAM_PROBE): header only, sent after a publication found its
     * receiver again (see {@link #checkConnection}); the receiving transport checks its sequence number and drops it.
     */
    static final int PROBE_TYPE = 25;
    /** The largest control frame (1 KiB): well below a datagram and a chunk, so never chunked itself. */
    static final int CONTROL_MAX_FRAME_BYTES = 1024;
    /** Bytes of control frames queued per peer (1 MiB, a thousand frames or more): a peer that takes none for that long is dying. */
    static final int CONTROL_QUEUE_BYTES = 1 << 20;
    /**
     * How long a publication opened for an owed continuation alone may stay unconnected (5 s, Aeron's connection
     * timeout) before it is closed again and the continuation waits for the next real frame to that peer.
     */
    static final long CONTINUATION_CONNECT_NS = 5_000_000_000L;
    /**
     * How long after an idle close a STREAM_CONTINUES owed for it goes by itself, when no frame for the peer opened a
     * publication before (30 s): at least Aeron's publication linger (5 s), after which what the peer has of the closed
     * stream is all it will ever have; longer, because each such continuation opens a publication for itself alone,
     * and in a run most links carry a frame again within that time, which takes the continuation along for free
     * (measured with 64 nodes, perf/README.md "64 replicas": at 5 s the extra publications were a third more streams
     * in the idle-in-run case). It bounds how late a lost tail is reported when nothing else is sent to that peer.
     */
    static final long OWED_CONTINUATION_AFTER_NS = 30_000_000_000L;

    /** A bulk message waiting for the publication: its bytes from offset 0. */
    private static final class Queued {
        final DirectBuffer buffer;
        final int length;

        Queued(final DirectBuffer buffer, final int length) {
            this.buffer = buffer;
            this.length = length;
        }
    }

    private final int linkId;
    private final String endpoint;
    private final String channel;
    private final int streamId;
    private final Aeron aeron;
    private final TrafficCounters traffic;
    /** Where copies of bulk messages that must wait are made. */
    private final OffHeapMemory memory;
    /** What {@link #openPublication()} runs first. */
    private final Runnable beforeOpen;
    /** A {@code beforeOpen} that does nothing (a standalone driver resolves on its own thread, not this one's to wake). */
    static final Runnable NOTHING = () -> { };
    /** Signs what this link offers; a new stream instance with each new publication. */
    private final FrameAuthenticator.Signer signer;
    private final UnsafeBuffer trailer = new UnsafeBuffer(new byte[FrameAuthenticator.TRAILER_LENGTH]);
    private final DirectBufferVector[] chunkVectors = {
        new DirectBufferVector(), new DirectBufferVector(), new DirectBufferVector()};
    private final long maxBulkBytes;
    private final ArrayDeque<Queued> bulkQueue = new ArrayDeque<>();
    private final ExpandableRingBuffer controlQueue = new ExpandableRingBuffer(4096, 2 * CONTROL_QUEUE_BYTES, false);
    private final UnsafeBuffer chunkHeaderBuffer = new UnsafeBuffer(new byte[ChunkFlyweight.PAYLOAD_OFFSET]);
    private final ChunkFlyweight chunkHeader = new ChunkFlyweight();
    private final ExpandableRingBuffer.MessageConsumer controlDrainer = this::drainControl;

    /** Told when the publication is made anew under messages it had taken (they may never arrive). */
    private final Consumer<String> onSendLoss;
    private ExclusivePublication publication;
    /** Whether the current publication took any message: if it closes under them, they may be lost. */
    private boolean publicationTookMessages;
    /**
     * Whether the current publication took a frame signed under the run key: only such a stream is continued after an
     * idle close (a stream of join-handshake frames alone is not: its protocol retries, and a tool or refused joiner
     * that exits would leave a continuation owed to an endpoint that never answers).
     */
    private boolean tookRunKeyFrame;
    /** Whether the publication took a message since {@link #closeIfIdle} looked last (no clock read per message). */
    private boolean tookSinceIdleCheck;
    /** When {@link #closeIfIdle} last saw the publication take a message, or saw it made. */
    private long lastActiveNs;
    /** Whether the publication was connected when {@link #checkConnection} looked last. */
    private boolean wasConnected;
    /** The publication lost its receiver (its image at the peer went away): a probe goes when it is back. */
    private boolean probePending;
    /**
     * A publication closed idle had taken messages: the next one continues its stream (same instance, sequence numbers
     * going on) and starts with a STREAM_CONTINUES naming {@link #closedSessionId}; cleared once one took it.
     */
    private boolean continuationOwed;
    /** The Aeron session of the publication closed idle that the owed continuation names. */
    private int closedSessionId;
    /**
     * When the owed continuation goes by itself ({@link #sendOwedContinuation}); not at all if
     * {@link #continuationWaitsForFrame}: the closed publication took only continuations, so the next frame carries it.
     */
    private long continuationDueNs;
    private boolean continuationWaitsForFrame;
    /** The publication was opened by {@link #sendOwedContinuation} for the continuation alone, at that time. */
    private boolean continuationAlone;
    private long continuationAloneSinceNs;
    /** Whether the current publication took nothing but STREAM_CONTINUES frames (if it took anything). */
    private boolean tookOnlyContinuations;
    private final UnsafeBuffer continuesBuffer = new UnsafeBuffer(new byte[StreamContinuesFlyweight.FRAME_LENGTH]);
    private final StreamContinuesFlyweight continues = new StreamContinuesFlyweight();
    /** The sender id and epoch of the last frame sent, for a probe's header. */
    private int lastSenderId;
    private int lastEpoch;
    private final UnsafeBuffer probe = new UnsafeBuffer(new byte[HeaderFlyweight.HEADER_LENGTH]);
    private final HeaderFlyweight probeHeader = new HeaderFlyweight();
    private long queuedBulkBytes;
    private int queuedControlBytes;
    private int queuedControl;
    private int nextMessageId;
    /** Chunks of the message at the head of the queue (or being sent) already accepted by the publication. */
    private int headChunksSent;

    /**
     * @param endpoint     the peer's own {@code host:port}, as members know it.
     * @param channel      the Aeron channel its datagrams go to (its endpoint, or a route in front of it).
     * @param maxBulkBytes the bytes of bulk messages that may wait for this peer.
     * @param beforeOpen   runs just before each publication is opened (wakes the embedded driver's resolver thread).
     */
    Link(final int linkId, final String endpoint, final String channel, final int streamId, final long maxBulkBytes,
        final Aeron aeron, final TrafficCounters traffic, final FrameAuthenticator authenticator,
        final Consumer<String> onSendLoss, final OffHeapMemory memory, final Runnable beforeOpen) {
        this.memory = memory;
        this.beforeOpen = beforeOpen;
        this.onSendLoss = onSendLoss;
        this.linkId = linkId;
        this.endpoint = endpoint;
        this.channel = channel;
        this.streamId = streamId;
        this.aeron = aeron;
        this.traffic = traffic;
        this.signer = authenticator.signerFor(endpoint);
        this.maxBulkBytes = maxBulkBytes;
        chunkHeader.wrap(chunkHeaderBuffer, 0, chunkHeaderBuffer.capacity());
    }

    int linkId() {
        return linkId;
    }

    String endpoint() {
        return endpoint;
    }

    boolean hasQueued() {
        return !bulkQueue.isEmpty() || queuedControl > 0;
    }

    int queuedMessages() {
        return bulkQueue.size() + queuedControl;
    }

    /** Bytes of bulk messages waiting for the publication. */
    long queuedBulkBytes() {
        return queuedBulkBytes;
    }

    boolean isConnected() {
        return publication != null && publication.isConnected();
    }

    /**
     * Sends now if nothing of its kind is queued and the publication takes it, else queues it.
     *
     * @param owned whether the link may keep {@code buffer} (offset 0) instead of copying it; the caller
     *              hands it over when this returns true (an {@link OffHeapFrame} with one reference, the link's).
     * @return false if its queue has no room: nothing was sent or kept, the caller still holds the message
     * (counted in {@link TrafficCounters#droppedQueueFull}).
     */
    boolean send(final DirectBuffer buffer, final int offset, final int length, final boolean owned) {
        final int taken = take(buffer, offset, length, owned);
        if (taken == SENT_OR_COPIED && owned) {
            OffHeapFrame.releaseIfOffHeap(buffer); // handed over, and not kept
        }
        return taken != REFUSED;
    }

    private static final int REFUSED = 0;
    private static final int SENT_OR_COPIED = 1;
    private static final int KEPT = 2;

    private int take(final DirectBuffer buffer, final int offset, final int length, final boolean owned) {
        if (length <= CONTROL_MAX_FRAME_BYTES) {
            if (queuedControl == 0 && trySend(buffer, offset, length)) {
                return SENT_OR_COPIED;
            }
            if (queuedControlBytes + length > CONTROL_QUEUE_BYTES || !controlQueue.append(buffer, offset, length)) {
                TrafficCounters.add(traffic.droppedQueueFull, 1);
                return REFUSED;
            }
            queuedControlBytes += length;
            queuedControl++;
            return SENT_OR_COPIED;
        }
        if (bulkQueue.isEmpty() && queuedControl == 0 && trySend(buffer, offset, length)) {
            return SENT_OR_COPIED;
        }
        if (queuedBulkBytes + length > maxBulkBytes) {
            // never with a partly sent message: the queue is then empty, and one message fits (config check)
            TrafficCounters.add(traffic.droppedQueueFull, 1);
            return REFUSED;
        }
        if (owned && offset == 0) {
            bulkQueue.addLast(new Queued(buffer, length));
            queuedBulkBytes += length;
            return KEPT;
        }
        final OffHeapFrame copy;
        try {
            copy = memory.allocate(length);
        } catch (final OutOfMemoryError e) {
            TrafficCounters.add(traffic.droppedQueueFull, 1); // the caller keeps it, as for a full queue
            return REFUSED;
        }
        SlicedCopy.copy(copy, 0, buffer, offset, length);
        bulkQueue.addLast(new Queued(copy, length));
        queuedBulkBytes += length;
        return SENT_OR_COPIED;
    }

    /**
     * Offers queued control frames, then queued bulk messages, each in order until the publication refuses
     * one; returns how many left the queues. Bulk waits while control frames are still queued.
     */
    int drain(final int limit) {
        int sent = queuedControl == 0 ? 0 : controlQueue.consume(controlDrainer, limit);
        while (queuedControl == 0 && sent < limit && !bulkQueue.isEmpty()) {
            final Queued head = bulkQueue.peekFirst();
            if (!trySend(head.buffer, 0, head.length)) {
                break;
            }
            bulkQueue.pollFirst();
            queuedBulkBytes -= head.length;
            OffHeapFrame.releaseIfOffHeap(head.buffer); // the link's reference (its copy, or a frame handed over)
            sent++;
        }
        return sent;
    }

    private boolean drainControl(final MutableDirectBuffer buffer, final int offset, final int length, final int headOffset) {
        if (trySend(buffer, offset, length)) {
            queuedControlBytes -= length;
            queuedControl--;
            return true;
        }
        return false;
    }

    /**
     * Watches the publication's connection (each duty cycle): when it lost its receiver (the peer's image timed
     * out: one side was stopped or cut off for Aeron's image liveness timeout) and has one again, a new image
     * started where the stream is, and what the old one had not delivered is lost. The receiver sees that only in
     * the sequence number of the next message, which may be long in coming (a result lost, and nothing more to
     * send to that owner), so a {@link #PROBE_TYPE STREAM_PROBE} goes at once: an empty frame whose only job is
     * its sequence number. Returns 1 if it sent (or queued) one.
     */
    int checkConnection() {
        if (publication == null) {
            wasConnected = false;
            return 0;
        }
        final boolean connected = publication.isConnected();
        if (wasConnected && !connected && publicationTookMessages) {
            probePending = true;
        }
        wasConnected = connected;
        if (connected && probePending) {
            probePending = false;
            probeHeader.wrap(probe, 0, HeaderFlyweight.HEADER_LENGTH);
            probeHeader.headerDefaults(PROBE_TYPE).senderId(lastSenderId).epoch(lastEpoch);
            return send(probe, 0, HeaderFlyweight.HEADER_LENGTH, false) ? 1 : 0;
        }
        return 0;
    }

    /**
     * Closes the publication if it took nothing for {@code idleNs}, nothing waits for it, and it stayed connected all
     * that time (the link stays; a later send opens a new publication). Called once per duty cycle with the cycle's
     * clock. The idle time counts only while Aeron calls the publication connected and no loss probe or owed
     * continuation waits; the sender's heartbeats carry the stream's end, so a live peer NAKs a lost tail within that
     * time, and Aeron's close still sends what the term holds and lingers (5 s) for retransmits. That is not proof:
     * Aeron calls a publication connected until no status message came for 5 s, so a peer silent from within the idle
     * time until past the linger can lose the tail. So a closed publication that took messages is not the stream's
     * end: the next publication continues its stream (same stream instance, sequence numbers going on) and opens with
     * a {@link StreamContinuesFlyweight STREAM_CONTINUES} naming the closed one's session. The peer holds that frame
     * while the closed one's image is still there (the tail may still be on its way), and a gap left once it is gone
     * is a sequence skip, reported as any other. If nothing else opens a publication, the continuation goes by itself
     * {@code owedContinuationAfterNs} ({@link #OWED_CONTINUATION_AFTER_NS}) after the close ({@link #sendOwedContinuation}), unless the closed
     * publication took only continuations (then the next frame carries it: a stream of continuations alone would
     * otherwise reopen for ever). The peer's authenticator so keeps one entry per link, however often it reopens.
     * Returns 1 if it closed one.
     */
    int closeIfIdle(final long nowNs, final long idleNs, final long owedContinuationAfterNs) {
        if (publication == null || hasQueued() || headChunksSent != 0 || continuationOwed) {
            return 0;
        }
        if (tookSinceIdleCheck || probePending || !publication.isConnected()) {
            tookSinceIdleCheck = false;
            lastActiveNs = nowNs; // idle, and connected, from now
            return 0;
        }
        if (nowNs - lastActiveNs < idleNs) {
            return 0;
        }
        final ExclusivePublication closing = publication;
        publication = null; // detached first: a close that throws (a driver timeout) leaves no closed publication here
        if (publicationTookMessages && tookRunKeyFrame && signer.signsUnderRunKey()) {
            // (before its run a node sends only the join handshake, which its own protocol retries: a new stream then)
            continuationOwed = true;
            closedSessionId = closing.sessionId();
            continuationWaitsForFrame = tookOnlyContinuations;
            continuationDueNs = nowNs + owedContinuationAfterNs;
        }
        publicationTookMessages = false;
        tookRunKeyFrame = false;
        wasConnected = false;
        TrafficCounters.add(traffic.publicationsClosedIdle, 1);
        closing.close();
        return 1;
    }

    /**
     * Sends the STREAM_CONTINUES an idle close left owed (once per duty cycle, with the cycle's clock): when it is due
     * (the close's {@code owedContinuationAfterNs} after it) it opens a publication for it alone, and offers it on an
     * open publication until it is taken. Returns 1 if it was taken now.
     */
    int sendOwedContinuation(final long nowNs) {
        if (!continuationOwed) {
            return 0;
        }
        if (publication == null) {
            if (continuationWaitsForFrame || nowNs - continuationDueNs < 0) {
                return 0;
            }
            openPublication();
            continuationAloneSinceNs = nowNs;
            continuationAlone = true;
        }
        if (offerContinuation()) {
            continuationAlone = false;
            return 1;
        }
        if (continuationAlone && publication != null && nowNs - continuationAloneSinceNs > CONTINUATION_CONNECT_NS) {
            // Opened for the continuation alone, and nobody answers (the peer left, or was a tool that exited): closed
            // again, or it would stay open for ever; the continuation stays owed, and the next real frame carries it.
            final ExclusivePublication unanswered = publication;
            publication = null;
            continuationAlone = false;
            continuationWaitsForFrame = true;
            wasConnected = false;
            TrafficCounters.add(traffic.publicationsClosedIdle, 1); // counted as the idle closes are: a stream given up
            unanswered.close();
        }
        return 0;
    }

    /** Closes the publication and drops the queue; returns how many messages were dropped. */
    int close() {
        final int dropped = bulkQueue.size() + queuedControl;
        if (dropped > 0) {
            TrafficCounters.add(traffic.droppedPeerGone, dropped);
        }
        for (final Queued queued : bulkQueue) {
            OffHeapFrame.releaseIfOffHeap(queued.buffer);
        }
        bulkQueue.clear();
        controlQueue.reset(4096);
        queuedBulkBytes = 0;
        queuedControlBytes = 0;
        queuedControl = 0;
        headChunksSent = 0;
        continuationOwed = false; // the peer is gone: a later publication starts a new stream
        if (publication != null) {
            publication.close();
            publication = null;
        }
        return dropped;
    }

    private boolean trySend(final DirectBuffer buffer, final int offset, final int length) {
        continuationAlone = false; // a real frame for this publication: it stays open for that
        final int type = buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
        lastSenderId = buffer.getInt(offset + HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER);
        lastEpoch = buffer.getInt(offset + HeaderFlyweight.EPOCH_OFFSET, HeaderFlyweight.BYTE_ORDER);
        if (publication == null) {
            openPublication();
        }
        if (continuationOwed && !offerContinuation()) {
            return false; // the continuation is the new publication's first message
        }
        if (length + FrameAuthenticator.TRAILER_LENGTH <= publication.maxMessageLength()) {
            if (offer(type, buffer, offset, length)) {
                traffic.onSent(type, length);
                return true;
            }
            return false;
        }
        final int chunkPayload = publication.maxMessageLength() - ChunkFlyweight.PAYLOAD_OFFSET -
            FrameAuthenticator.TRAILER_LENGTH;
        final int chunkCount = (length + chunkPayload - 1) / chunkPayload;
        if (headChunksSent == 0) {
            nextMessageId++;
        }
        chunkHeader.headerDefaults(ChunkFlyweight.TYPE)
            .senderId(buffer.getInt(offset + HeaderFlyweight.SENDER_ID_OFFSET, HeaderFlyweight.BYTE_ORDER))
            .epoch(buffer.getInt(offset + HeaderFlyweight.EPOCH_OFFSET, HeaderFlyweight.BYTE_ORDER));
        chunkHeader.messageId(nextMessageId).chunkCount(chunkCount).totalLength(length);
        while (headChunksSent < chunkCount) {
            final int at = headChunksSent * chunkPayload;
            final int payload = Math.min(chunkPayload, length - at);
            chunkHeader.chunkIndex(headChunksSent).frameLength(ChunkFlyweight.PAYLOAD_OFFSET + payload);
            if (!offer2(buffer, offset + at, payload)) {
                return false;
            }
            traffic.onSent(ChunkFlyweight.TYPE, ChunkFlyweight.PAYLOAD_OFFSET + payload);
            headChunksSent++;
        }
        headChunksSent = 0;
        traffic.onSent(type, length);
        return true;
    }

    /**
     * Opens the publication (synchronous with the driver, which the invoker steps meanwhile; once per peer, and again
     * after a close). A new Aeron session is a new stream to the peer, in order from its first frame, unless it
     * continues one closed idle: then the sequence numbers go on, behind a STREAM_CONTINUES.
     */
    private void openPublication() {
        beforeOpen.run();
        publication = aeron.addExclusivePublication(channel, streamId);
        publicationTookMessages = false;
        tookRunKeyFrame = false;
        tookOnlyContinuations = true;
        tookSinceIdleCheck = true; // idle from now, not from the last check
        wasConnected = false;
        probePending = false;
        if (!continuationOwed) {
            signer.restart();
        }
    }

    /** Offers the owed STREAM_CONTINUES (header from the last frame sent); true if the publication took it. */
    private boolean offerContinuation() {
        continues.wrap(continuesBuffer, 0, StreamContinuesFlyweight.FRAME_LENGTH);
        continues.headerDefaults(StreamContinuesFlyweight.TYPE).senderId(lastSenderId).epoch(lastEpoch)
            .frameLength(StreamContinuesFlyweight.FRAME_LENGTH);
        continues.closedSessionId(closedSessionId);
        signer.sign(StreamContinuesFlyweight.TYPE, continuesBuffer, 0, StreamContinuesFlyweight.FRAME_LENGTH, null, 0, 0,
            trailer);
        if (!onOfferResult(publication.offer(continuesBuffer, 0, StreamContinuesFlyweight.FRAME_LENGTH, trailer, 0,
            FrameAuthenticator.TRAILER_LENGTH))) {
            return false;
        }
        continuationOwed = false;
        traffic.onSent(StreamContinuesFlyweight.TYPE, StreamContinuesFlyweight.FRAME_LENGTH);
        return true;
    }

    private boolean offer(final int type, final DirectBuffer buffer, final int offset, final int length) {
        signer.sign(type, buffer, offset, length, null, 0, 0, trailer);
        if (onOfferResult(publication.offer(buffer, offset, length, trailer, 0, FrameAuthenticator.TRAILER_LENGTH))) {
            tookOnlyContinuations = false;
            return true;
        }
        return false;
    }

    private boolean offer2(final DirectBuffer buffer, final int offset, final int length) {
        signer.sign(ChunkFlyweight.TYPE, chunkHeaderBuffer, 0, ChunkFlyweight.PAYLOAD_OFFSET, buffer, offset, length,
            trailer);
        chunkVectors[0].reset(chunkHeaderBuffer, 0, ChunkFlyweight.PAYLOAD_OFFSET);
        chunkVectors[1].reset(buffer, offset, length);
        chunkVectors[2].reset(trailer, 0, FrameAuthenticator.TRAILER_LENGTH);
        if (onOfferResult(publication.offer(chunkVectors))) {
            tookOnlyContinuations = false;
            return true;
        }
        return false;
    }

    private boolean onOfferResult(final long result) {
        if (result > 0) {
            tookRunKeyFrame |= signer.lastSignedUnderRunKey(); // before sent(): it names the message just signed
            signer.sent();
            publicationTookMessages = true;
            tookSinceIdleCheck = true;
            return true;
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
            // The stream is over: a new publication (new session) starts again; a partly sent
            // chunked message is resent whole, the receiver discards the partial one. What the old one took
            // may not have arrived, and its receiver cannot tell (the new stream starts from sequence 0): the
            // loss is reported, to be handled as a failure.
            publication.close();
            publication = null;
            headChunksSent = 0;
            TrafficCounters.add(traffic.publicationsRecreated, 1);
            tookRunKeyFrame = false;
            if (publicationTookMessages) {
                publicationTookMessages = false;
                onSendLoss.accept(endpoint);
            }
        }
        // NOT_CONNECTED, BACK_PRESSURED, ADMIN_ACTION: stay queued and retry in a later duty cycle.
        return false;
    }
}
