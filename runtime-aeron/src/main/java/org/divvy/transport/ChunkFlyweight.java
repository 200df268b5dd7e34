package org.divvy.transport;

import org.divvy.protocol.HeaderFlyweight;

/**
 * CHUNK: one piece of a message larger than the publication's maximum message length. The transport
 * splits such a message into chunks and reassembles them per sending stream; a chunk's payload is a
 * slice of the whole message, header included.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                Message Id (per sender, increasing)            |
 *  +---------------------------------------------------------------+
 *  |                         Chunk Index                           |
 *  +---------------------------------------------------------------+
 *  |                         Chunk Count                           |
 *  +---------------------------------------------------------------+
 *  |                Total Length of the whole message              |
 *  +---------------------------------------------------------------+
 *  |                         Payload ...                          ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ChunkFlyweight extends HeaderFlyweight {
    /** The message type code (CHUNK): One piece of a message larger than a publication's maximum message length. */
    public static final int TYPE = 10;
    public static final int MESSAGE_ID_OFFSET = HEADER_LENGTH;
    public static final int CHUNK_INDEX_OFFSET = MESSAGE_ID_OFFSET + 4;
    public static final int CHUNK_COUNT_OFFSET = CHUNK_INDEX_OFFSET + 4;
    public static final int TOTAL_LENGTH_OFFSET = CHUNK_COUNT_OFFSET + 4;
    public static final int PAYLOAD_OFFSET = TOTAL_LENGTH_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = PAYLOAD_OFFSET - HEADER_LENGTH;

    public int messageId() {
        return buffer.getInt(MESSAGE_ID_OFFSET, BYTE_ORDER);
    }

    public ChunkFlyweight messageId(final int messageId) {
        buffer.putInt(MESSAGE_ID_OFFSET, messageId, BYTE_ORDER);
        return this;
    }

    public int chunkIndex() {
        return buffer.getInt(CHUNK_INDEX_OFFSET, BYTE_ORDER);
    }

    public ChunkFlyweight chunkIndex(final int chunkIndex) {
        buffer.putInt(CHUNK_INDEX_OFFSET, chunkIndex, BYTE_ORDER);
        return this;
    }

    public int chunkCount() {
        return buffer.getInt(CHUNK_COUNT_OFFSET, BYTE_ORDER);
    }

    public ChunkFlyweight chunkCount(final int chunkCount) {
        buffer.putInt(CHUNK_COUNT_OFFSET, chunkCount, BYTE_ORDER);
        return this;
    }

    public int totalLength() {
        return buffer.getInt(TOTAL_LENGTH_OFFSET, BYTE_ORDER);
    }

    public ChunkFlyweight totalLength(final int totalLength) {
        buffer.putInt(TOTAL_LENGTH_OFFSET, totalLength, BYTE_ORDER);
        return this;
    }

    /** The payload bytes of a frame of {@code frameLength}. */
    public static int payloadLength(final int frameLength) {
        return frameLength - PAYLOAD_OFFSET;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int count = chunkCount();
        final int index = chunkIndex();
        final int total = totalLength();
        return count > 0 && index >= 0 && index < count && total > 0 && payloadLength(frameLength) <= total;
    }
}
