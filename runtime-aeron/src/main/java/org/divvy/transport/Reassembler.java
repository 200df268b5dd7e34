package org.divvy.transport;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.FrameCounters;

/**
 * Rebuilds chunked messages, one in progress per sending stream (Aeron session). Aeron delivers a
 * session's frames reliably and in order, so chunks must arrive as index 0, 1, ... of one message id;
 * anything else (a gap, a changed count or total, a new message before the old one ended) means the
 * stream was broken, and the partial message is dropped and counted. The bytes of all partial messages
 * together are bounded: a first chunk that would exceed the bound is dropped with its message.
 *
 * <p>Owned by the network agent thread. A message's buffer is allocated when its first chunk arrives:
 * large messages are rare and their size is only known then.
 */
final class Reassembler {
    private static final class Partial {
        int messageId;
        int chunkCount;
        int nextIndex;
        int filled;
        UnsafeBuffer bytes;
        /** Skip the rest of this message id (it was dropped). */
        boolean skipping;
    }

    private final int maxReassemblyBytes;
    private final FrameCounters counters;
    private final Int2ObjectHashMap<Partial> partialBySession = new Int2ObjectHashMap<>();
    private final ChunkFlyweight chunk = new ChunkFlyweight();
    private long bytesInUse;

    Reassembler(final int maxReassemblyBytes, final FrameCounters counters) {
        this.maxReassemblyBytes = maxReassemblyBytes;
        this.counters = counters;
    }

    /** Bytes held by partial messages now. */
    long bytesInUse() {
        return bytesInUse;
    }

    /**
     * Adds one validated CHUNK frame.
     *
     * @return the whole message in a buffer of exactly its length once the last chunk arrived, else null.
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
            partial = new Partial();
            partial.messageId = messageId;
            partial.chunkCount = chunk.chunkCount();
            partialBySession.put(sessionId, partial);
            final int total = chunk.totalLength();
            if (bytesInUse + total > maxReassemblyBytes) {
                FrameCounters.count(counters.badChunk);
                partial.skipping = true;
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

    /** Forgets the partial message of a stream that went away. */
    void onStreamClosed(final int sessionId) {
        final Partial partial = partialBySession.get(sessionId);
        if (partial != null) {
            if (!partial.skipping) {
                FrameCounters.count(counters.badChunk);
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
