package org.divvy.sharing;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * SO_UPDATE: writes to shared objects, combined: every write a node made within the combining delay, in
 * the order it made them, broadcast to every member (function shipping, thesis §5.3). Best effort: a
 * receiver without a replica of an object skips its writes.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                         Write Count                           |
 *  +---------------------------------------------------------------+
 *  |  Write x Write Count:                                        ...
 *  |    Object Id (int64) | Method Id (int32) | Arguments Length (int32) | Arguments ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class SharedUpdateFlyweight extends HeaderFlyweight {
    /** The message type code (SO_UPDATE). */
    public static final int TYPE = 26;
    public static final int COUNT_OFFSET = HEADER_LENGTH;
    public static final int WRITES_OFFSET = COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = WRITES_OFFSET - HEADER_LENGTH;
    /** Bytes of one write before its arguments: object id, method id, arguments length. */
    public static final int WRITE_HEADER_LENGTH = 8 + 4 + 4;

    public int count() {
        return buffer.getInt(COUNT_OFFSET, BYTE_ORDER);
    }

    public SharedUpdateFlyweight count(final int count) {
        buffer.putInt(COUNT_OFFSET, count, BYTE_ORDER);
        return this;
    }

    public long objectId(final int at) {
        return buffer.getLong(at, BYTE_ORDER);
    }

    public int methodId(final int at) {
        return buffer.getInt(at + 8, BYTE_ORDER);
    }

    public int argumentsLength(final int at) {
        return buffer.getInt(at + 12, BYTE_ORDER);
    }

    /** Where the arguments of the write at {@code at} start. */
    public static int argumentsOffset(final int at) {
        return at + WRITE_HEADER_LENGTH;
    }

    /** Where the write after the one at {@code at} starts. */
    public int next(final int at) {
        return at + WRITE_HEADER_LENGTH + argumentsLength(at);
    }

    /**
     * Copies {@code length} bytes of {@code count} encoded writes (as an outbox holds them, from {@code offset}) in after
     * the count; returns the frame length.
     */
    public int putWrites(final int count, final DirectBuffer writes, final int offset, final int length) {
        count(count);
        buffer.putBytes(WRITES_OFFSET, writes, offset, length);
        final int frameLength = WRITES_OFFSET + length;
        frameLength(frameLength);
        return frameLength;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int count = count();
        if (count < 0) {
            return false;
        }
        int at = WRITES_OFFSET;
        for (int i = 0; i < count; i++) {
            if (frameLength - at < WRITE_HEADER_LENGTH) {
                return false;
            }
            final int length = argumentsLength(at);
            if (length < 0 || length > frameLength - at - WRITE_HEADER_LENGTH) {
                return false;
            }
            at += WRITE_HEADER_LENGTH + length;
        }
        return at == frameLength;
    }
}
