package org.divvy.sharing;

import org.divvy.protocol.HeaderFlyweight;

/**
 * SO_REPLICA_REQUEST: send me your replica of this shared object; to the node a job using it came from
 * (thesis §5.3: on first use, or when the job's guard failed), or to another holder when that one is gone.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                       Object Id (int64)                       |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ReplicaRequestFlyweight extends HeaderFlyweight {
    /** The message type code (SO_REPLICA_REQUEST). */
    public static final int TYPE = 27;
    public static final int OBJECT_ID_OFFSET = HEADER_LENGTH;
    public static final int FRAME_LENGTH = OBJECT_ID_OFFSET + 8;
    public static final int MIN_BODY_LENGTH = FRAME_LENGTH - HEADER_LENGTH;

    public long objectId() {
        return buffer.getLong(OBJECT_ID_OFFSET, BYTE_ORDER);
    }

    public ReplicaRequestFlyweight objectId(final long id) {
        buffer.putLong(OBJECT_ID_OFFSET, id, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH;
    }
}
