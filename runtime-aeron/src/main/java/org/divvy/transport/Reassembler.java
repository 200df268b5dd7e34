package org.divvy.transport;

import java.util.ArrayList;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.DivvyException;
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
 * <p>Owned by the network agent thread. A message's buffer is allocated when its first chunk arrives (large
 * messages are rare and their size is only known then): up to {@link #INLINE_ALLOCATION_BYTES} on the agent
 * thread, a larger one by the {@code allocator} (another thread: zeroing and faulting in hundreds of MB took
 * the agent hundreds of ms). Until that buffer is there the first chunk is refused with {@link #LATER} too, and
 * stays in its stream; its room under the bound is taken at once. So the agent's own work per chunk is one copy
 * of the chunk's payload, whatever the message's size. A message dropped while its buffer is being allocated
 * keeps its room until the allocator is done: that buffer is on the heap all the same, and the bound is what
 * keeps the heap from being overrun.
 */
final class Reassembler {
    private static final class Partial {
        int messageId;
        /** The sender id its chunks carry: whose message is lost if the stream breaks under it. */
        int senderId;
        int chunkCount;
        int nextIndex;
        int filled;
        /** The message's length; its room under the bound is taken while this partial exists. */
        int total;
        UnsafeBuffer bytes;
        /** Skip the rest of this message id (it was dropped). */
        boolean skipping;
        /** The buffer the allocator made (written by its thread), until the first chunk is taken. */
        volatile UnsafeBuffer allocated;
        /** What the allocator threw instead (written by its thread); the message is dropped. */
        volatile Throwable allocationFailure;
        /** Its buffer was given to the allocator (agent thread). */
        boolean allocating;
        /** The allocator is done with it, whichever way (written by its thread). */
        volatile boolean allocationDone;
    }

    /**
     * Messages up to this length (1 MiB) get their buffer on the agent thread, when their first chunk arrives:
     * zeroing it takes well under a millisecond, less than the hop to another thread.
     */
    static final int INLINE_ALLOCATION_BYTES = 1 << 20;

    /**
     * Returned by {@link #onChunk} for a first chunk that cannot be taken yet (no room under the bound, or its
     * buffer is still being allocated): nothing was copied; offer it again later.
     */
    static final UnsafeBuffer LATER = new UnsafeBuffer(new byte[0]);

    private final long maxReassemblyBytes;
    private final FrameCounters counters;
    private final ErrorHandler errorHandler;
    private final Executor allocator;
    private final Int2ObjectHashMap<Partial> partialBySession = new Int2ObjectHashMap<>();
    /** Dropped messages whose buffer the allocator is still making: their room is held until it is done. */
    private final ArrayList<Partial> abandoned = new ArrayList<>();
    private final ChunkFlyweight chunk = new ChunkFlyweight();
    private long bytesInUse;

    /** Told the sender id of a partly received message its stream went away under: a message lost in transit. */
    private final IntConsumer onCutOff;

    /**
     * @param allocator runs the allocation of a buffer above {@link #INLINE_ALLOCATION_BYTES}, on a thread other
     *                  than the agent's.
     * @param onCutOff  told the sender id of a partly received message whose stream went away: a loss in transit.
     */
    Reassembler(final long maxReassemblyBytes, final FrameCounters counters, final ErrorHandler errorHandler,
        final Executor allocator, final IntConsumer onCutOff) {
        this.onCutOff = onCutOff;
        this.maxReassemblyBytes = maxReassemblyBytes;
        this.counters = counters;
        this.errorHandler = errorHandler;
        this.allocator = allocator;
    }

    /** Bytes held by partial messages now, and by dropped ones whose buffer is still being allocated. */
    long bytesInUse() {
        return bytesInUse;
    }

    /**
     * Adds one validated CHUNK frame.
     *
     * @return the whole message in a buffer of exactly its length once the last chunk arrived; {@link #LATER}
     * for a first chunk whose message does not fit the bound now or whose buffer is not allocated yet (offer it
     * again later); else null.
     */
    UnsafeBuffer onChunk(final int sessionId, final DirectBuffer buffer, final int offset, final int length) {
        if (!abandoned.isEmpty()) {
            reclaimAbandoned();
        }
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
            partial.total = total;
            bytesInUse += total;
            if (total <= INLINE_ALLOCATION_BYTES) {
                partial.bytes = new UnsafeBuffer(new byte[total]);
            } else {
                final Partial allocating = partial;
                partial.allocating = true;
                allocator.execute(() -> allocate(allocating, total));
                return LATER;
            }
        } else if (partial.bytes == null && !partial.skipping) {
            // the first chunk again, offered while its buffer was being allocated
            if (index != 0) {
                FrameCounters.count(counters.badChunk);
                release(sessionId, partial);
                return null;
            }
            final Throwable failure = partial.allocationFailure;
            if (failure != null) {
                FrameCounters.count(counters.badChunk);
                partial.skipping = true;
                bytesInUse -= partial.total;
                partial.total = 0;
                errorHandler.onError(new DivvyException("a chunked message of " + chunk.totalLength() + " bytes was " +
                    "dropped: its buffer could not be allocated (" + failure + "); give the node more heap (-Xmx) or " +
                    "lower maxReassemblyBytes", failure));
                onCutOff.accept(partial.senderId); // lost as surely as one cut off: handled as a failure
                return null;
            }
            final UnsafeBuffer allocated = partial.allocated;
            if (allocated == null) {
                return LATER;
            }
            partial.bytes = allocated;
            partial.allocated = null;
        }
        if (partial.skipping) {
            FrameCounters.count(counters.badChunk);
            return null;
        }
        if (index != partial.nextIndex || chunk.chunkCount() != partial.chunkCount ||
            chunk.totalLength() != partial.bytes.capacity() || payload > partial.bytes.capacity() - partial.filled) {
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
        final UnsafeBuffer whole = partial.bytes;
        final boolean complete = partial.filled == whole.capacity();
        release(sessionId, partial);
        if (!complete) {
            FrameCounters.count(counters.badChunk);
            return null;
        }
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
        if (partial.allocating && !partial.allocationDone) {
            abandoned.add(partial); // its buffer is being made all the same: its room is held until it is
            return;
        }
        bytesInUse -= partial.total;
        partial.total = 0;
        partial.allocated = null;
    }

    /** Gives back the room of dropped messages whose allocation has ended (rare: only while there are some). */
    private void reclaimAbandoned() {
        for (int i = abandoned.size() - 1; i >= 0; i--) {
            final Partial partial = abandoned.get(i);
            if (partial.allocationDone) {
                abandoned.remove(i);
                bytesInUse -= partial.total;
                partial.total = 0;
                partial.allocated = null; // garbage now
            }
        }
    }

    /** On the allocator's thread: the buffer of a message of {@code total} bytes, or why there is none. */
    private static void allocate(final Partial partial, final int total) {
        try {
            partial.allocated = new UnsafeBuffer(new byte[total]);
        } catch (final Throwable t) {
            partial.allocationFailure = t; // reported on the agent thread, when the first chunk comes again
        } finally {
            partial.allocationDone = true;
        }
    }
}
