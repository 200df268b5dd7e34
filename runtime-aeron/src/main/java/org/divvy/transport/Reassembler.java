package org.divvy.transport;

import java.util.function.IntConsumer;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.protocol.FrameCounters;

/**
 * Rebuilds chunked messages, one in progress per sending stream (Aeron session). Aeron delivers a
 * session's frames reliably and in order, so chunks must arrive as index 0, 1, ... of one message id;
 * anything else (a gap, a changed count or total, a new message before the old one ended) means the
 * stream was broken, and the partial message is dropped and counted. The bytes of all partial messages
 * together are bounded ({@code maxReassemblyBytes}): a first chunk that would pass the bound is refused with
 * {@link #LATER}, and the transport leaves it in its stream to offer it again later (its sender is back
 * pressured meanwhile); messages under way always complete, so room comes. Only a message larger than the
 * whole bound (a peer configured with a larger {@code maxMessageBytes}) can never be taken: it is dropped,
 * counted and reported.
 *
 * <p>Owned by the network agent thread. A message's buffer is an {@link OffHeapFrame}, allocated when its first
 * chunk arrives (its size is only known then) on the agent thread: malloc'd memory is a fresh mapping nobody
 * zeroes (a {@code new byte[200 MB]} was zeroed by the JVM in one step, which held every safepoint of the
 * process), and its pages are faulted in a chunk at a time by the copies. So the agent's own work per chunk is one
 * copy of the chunk's payload, whatever the message's size. The reassembler holds the frame's one reference until
 * the message is whole, then hands it to the caller; a message dropped on the way is released here, and
 * {@link #close()} releases those under way.
 */
final class Reassembler implements AutoCloseable {
    private static final class Partial {
        int messageId;
        /** The sender id its chunks carry: whose message is lost if the stream breaks under it. */
        int senderId;
        int chunkCount;
        int nextIndex;
        int filled;
        /** The message's length; its room under the bound is taken while this partial exists. */
        int total;
        /** Its bytes (this reassembler's reference), null while skipping. */
        OffHeapFrame bytes;
        /** Skip the rest of this message id (it was dropped). */
        boolean skipping;
    }

    /**
     * Returned by {@link #onChunk} for a first chunk that cannot be taken yet (no room under the bound): nothing
     * was copied; offer it again later.
     */
    static final UnsafeBuffer LATER = new UnsafeBuffer(new byte[0]);

    private final long maxReassemblyBytes;
    private final FrameCounters counters;
    private final ErrorHandler errorHandler;
    private final OffHeapMemory memory;
    private final Int2ObjectHashMap<Partial> partialBySession = new Int2ObjectHashMap<>();
    private final ChunkFlyweight chunk = new ChunkFlyweight();
    private long bytesInUse;

    /** Told the sender id of a partly received message its stream went away under: a message lost in transit. */
    private final IntConsumer onCutOff;

    /**
     * @param memory    where messages' buffers are allocated.
     * @param onCutOff  told the sender id of a partly received message whose stream went away: a loss in transit.
     */
    Reassembler(final long maxReassemblyBytes, final FrameCounters counters, final ErrorHandler errorHandler,
        final OffHeapMemory memory, final IntConsumer onCutOff) {
        this.onCutOff = onCutOff;
        this.maxReassemblyBytes = maxReassemblyBytes;
        this.counters = counters;
        this.errorHandler = errorHandler;
        this.memory = memory;
    }

    /** Bytes held by partial messages now. */
    long bytesInUse() {
        return bytesInUse;
    }

    /**
     * Adds one validated CHUNK frame.
     *
     * @return the whole message, once the last chunk arrived: an {@link OffHeapFrame} of exactly its length whose
     * one reference is now the caller's, to release; {@link #LATER} for a first chunk whose message does not fit
     * the bound now (offer it again later); else null.
     */
    UnsafeBuffer onChunk(final int sessionId, final DirectBuffer buffer, final int offset, final int length) {
        chunk.wrap(buffer, offset, length);
        final int messageId = chunk.messageId();
        final int index = chunk.chunkIndex();
        final int payload = ChunkFlyweight.payloadLength(length);
        Partial partial = partialBySession.get(sessionId);
        if (partial != null && partial.messageId != messageId) {
            if (!partial.skipping) {
                // The previous message never finished on this ordered stream: it is broken.
                FrameCounters.count(counters.badChunk);
            }
            release(sessionId, partial);
            partial = null;
        }
        if (partial == null) {
            if (index != 0) {
                FrameCounters.count(counters.badChunk);
                return null;
            }
            final int total = chunk.totalLength();
            if (total <= maxReassemblyBytes && bytesInUse + total > maxReassemblyBytes) {
                return LATER;
            }
            partial = new Partial();
            partial.messageId = messageId;
            partial.senderId = chunk.senderId();
            partial.chunkCount = chunk.chunkCount();
            partialBySession.put(sessionId, partial);
            if (total > maxReassemblyBytes) {
                FrameCounters.count(counters.badChunk);
                partial.skipping = true;
                errorHandler.onError(new DivvyException("a chunked message of " + total + " bytes is larger than " +
                    "maxReassemblyBytes=" + maxReassemblyBytes + " and was dropped: every node needs the same " +
                    "maxMessageBytes, and maxReassemblyBytes at least as large"));
                return null;
            }
            try {
                partial.bytes = memory.allocate(total);
            } catch (final OutOfMemoryError e) {
                FrameCounters.count(counters.badChunk);
                partial.skipping = true;
                errorHandler.onError(new DivvyException("a chunked message of " + total + " bytes was dropped: " +
                    "its buffer could not be allocated (" + e + "); give the machine more memory or lower " +
                    "maxReassemblyBytes", e));
                onCutOff.accept(partial.senderId); // lost as surely as one cut off: handled as a failure
                return null;
            }
            partial.total = total;
            bytesInUse += total;
        }
        if (partial.skipping) {
            FrameCounters.count(counters.badChunk);
            return null;
        }
        if (index != partial.nextIndex || chunk.chunkCount() != partial.chunkCount ||
            chunk.totalLength() != partial.total || payload > partial.total - partial.filled) {
            FrameCounters.count(counters.badChunk);
            release(sessionId, partial);
            return null;
        }
        partial.bytes.putBytes(partial.filled, buffer, offset + ChunkFlyweight.PAYLOAD_OFFSET, payload);
        partial.filled += payload;
        partial.nextIndex++;
        if (partial.nextIndex < partial.chunkCount) {
            return null;
        }
        if (partial.filled != partial.total) {
            FrameCounters.count(counters.badChunk);
            release(sessionId, partial);
            return null;
        }
        final OffHeapFrame whole = partial.bytes;
        partial.bytes = null; // the caller's now
        release(sessionId, partial);
        return whole;
    }

    /**
     * Forgets the partial message of a stream that went away. Reported, not only counted: unless its sender
     * died, a message was lost (Aeron drops an image whose sender or receiver stalled past its liveness
     * timeout, and a new image starts where the stream is, not where the message began).
     */
    void onStreamClosed(final int sessionId) {
        final Partial partial = partialBySession.get(sessionId);
        if (partial != null) {
            if (!partial.skipping) {
                FrameCounters.count(counters.badChunk);
                errorHandler.onError(new DivvyException("a chunked message of " + partial.total +
                    " bytes was cut off after " + partial.nextIndex + " of " + partial.chunkCount +
                    " chunks: its stream (Aeron session " + sessionId + ") went away"));
                onCutOff.accept(partial.senderId); // nothing is sent again: unless its sender died, handled as a failure
            }
            release(sessionId, partial);
        }
    }

    private void release(final int sessionId, final Partial partial) {
        partialBySession.remove(sessionId);
        bytesInUse -= partial.total;
        partial.total = 0;
        if (partial.bytes != null) {
            partial.bytes.release();
            partial.bytes = null;
        }
    }

    /** Releases the buffers of the messages under way (the transport is closing). */
    @Override
    public void close() {
        for (final Partial partial : partialBySession.values()) {
            bytesInUse -= partial.total;
            partial.total = 0;
            if (partial.bytes != null) {
                partial.bytes.release();
                partial.bytes = null;
            }
        }
        partialBySession.clear();
    }
}
