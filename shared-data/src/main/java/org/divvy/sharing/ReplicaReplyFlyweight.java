package org.divvy.sharing;

import org.divvy.protocol.HeaderFlyweight;

/**
 * SO_REPLICA_REPLY: the answer to SO_REPLICA_REQUEST: the replica's state through its generated codec,
 * or "not held" (the node has no settled replica of it: ask another). A state larger than one Aeron
 * message travels chunked, as every large frame does.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                       Object Id (int64)                       |
 *  +---------------------------------------------------------------+
 *  |                   Held (1: state follows, 0: not held)         |
 *  +---------------------------------------------------------------+
 *  |                         State Length                          |
 *  +---------------------------------------------------------------+
 *  |                          State ...                           ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ReplicaReplyFlyweight extends HeaderFlyweight {
    /** The message type code (SO_REPLICA_REPLY). */
    public static final int TYPE = 28;
    public static final int OBJECT_ID_OFFSET = HEADER_LENGTH;
    public static final int HELD_OFFSET = OBJECT_ID_OFFSET + 8;
    public static final int STATE_LENGTH_OFFSET = HELD_OFFSET + 4;
    public static final int STATE_OFFSET = STATE_LENGTH_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = STATE_OFFSET - HEADER_LENGTH;

    public long objectId() {
        return buffer.getLong(OBJECT_ID_OFFSET, BYTE_ORDER);
    }

    public boolean held() {
        return buffer.getInt(HELD_OFFSET, BYTE_ORDER) == 1;
    }

    public int stateLength() {
        return buffer.getInt(STATE_LENGTH_OFFSET, BYTE_ORDER);
    }

    /** Writes the fixed part; the state (of {@code stateLength} bytes) goes at {@link #STATE_OFFSET}. */
    public ReplicaReplyFlyweight start(final long objectId, final boolean held, final int stateLength) {
        buffer.putLong(OBJECT_ID_OFFSET, objectId, BYTE_ORDER);
        buffer.putInt(HELD_OFFSET, held ? 1 : 0, BYTE_ORDER);
        buffer.putInt(STATE_LENGTH_OFFSET, stateLength, BYTE_ORDER);
        frameLength(STATE_OFFSET + stateLength);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int held = buffer.getInt(HELD_OFFSET, BYTE_ORDER);
        final int length = stateLength();
        return (held == 0 || held == 1) && length >= 0 && length == frameLength - STATE_OFFSET && (held == 1 || length == 0);
    }
}
