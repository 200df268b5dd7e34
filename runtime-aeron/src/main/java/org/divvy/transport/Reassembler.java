package org.divvy.transport;

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
 * {@link #NO_ROOM}, and the transport leaves it in its stream to offer it again later (its sender is back
 * pressured meanwhile); messages under way always complete, so room comes. Only a message larger than the
 * whole bound (a peer configured with a larger {@code maxMessageBytes}) can never be taken: it is dropped,
 * counted and reported.
 *
 * <p>Owned by the network agent thread. A message's buffer is allocated when its first chunk arrives:
 * large messages are rare and their size is only known then.
 */
final class Reassembler {
    private static final class Partial {
        int messageId;
        /** The sender id its chunks carry: whose message is lost if the stream breaks under it. */
        int senderId;
        int chunkCount;
        int nextIndex;
        int filled;
        UnsafeBuffer bytes;
        /** Skip the rest of this message id (it was dropped). */
        boolean skipping;
    }

    /** Returned by {@link #onChunk} for a first chunk there is no room for yet: offer it again later. */
    static final UnsafeBuffer NO_ROOM = new UnsafeBuffer(new byte[0]);

    private final long maxReassemblyBytes;
    private final FrameCounters counters;
    private final ErrorHandler errorHandler;
    private final Int2ObjectHashMap<Partial> partialBySession = new Int2ObjectHashMap<>();
    private final ChunkFlyweight chunk = new ChunkFlyweight();
    private long bytesInUse;

    /** Told the sender id of a partly received message its stream went away under: a message lost in transit. */
    private final IntConsumer onCutOff;

    Reassembler(final long maxReassemblyBytes, final FrameCounters counters, final ErrorHandler errorHandler,
        final IntConsumer onCutOff) {
        this.onCutOff = onCutOff;
        this.maxReassemblyBytes = maxReassemblyBytes;
        this.counters = counters;
        this.errorHandler = errorHandler;
    }

    /** Bytes held by partial messages now. */
    long bytesInUse() {
        return bytesInUse;
    }

    /**
     * Adds one validated CHUNK frame.
     *
     * @return the whole message in a buffer of exactly its length once the last chunk arrived; {@link #NO_ROOM}
     * for a first chunk whose message does not fit the bound now (nothing changed: offer it again later); else null.
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
                return NO_ROOM;
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
            partial.bytes = new UnsafeBuffer(new byte[total]);
            bytesInUse += total;
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
                errorHandler.onError(new DivvyException("a chunked message of " + partial.bytes.capacity() +
                    " bytes was cut off after " + partial.nextIndex + " of " + partial.chunkCount +
                    " chunks: its stream (Aeron session " + sessionId + ") went away"));
                onCutOff.accept(partial.senderId); // nothing is sent again: unless its sender died, handled as a failure
            }
            release(sessionId, partial);
        }
    }

    private void release(final int sessionId, final Partial partial) {
        partialBySession.remove(sessionId);
        if (partial.bytes != null) {
            bytesInUse -= partial.bytes.capacity();
        }
    }
}
