package org.divvy.transport;

import org.divvy.protocol.HeaderFlyweight;

/**
 * STREAM_CONTINUES (31): the first frame of a publication a {@link Link} opened after it closed the one before
 * for being idle. The new publication is a new Aeron session but the same authenticated stream: its sequence
 * numbers go on from the closed one's, under the same stream instance. The frame names the closed publication's
 * Aeron session, so the receiving transport can tell a gap before it (the closed stream's tail) that may still be
 * on its way in the old image from one that is lost: it holds the frame in its stream while that image is there,
 * and once the image is gone, a gap still left is a sequence skip, reported as any other. Never delivered to a
 * mechanism.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |          Closed Session Id (the closed publication's)         |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class StreamContinuesFlyweight extends HeaderFlyweight {
    /** The message type code (STREAM_CONTINUES). */
    public static final int TYPE = 31;
    public static final int CLOSED_SESSION_ID_OFFSET = HEADER_LENGTH;
    /** Bytes of the whole frame: it has no variable part. */
    public static final int FRAME_LENGTH = CLOSED_SESSION_ID_OFFSET + 4;

    public int closedSessionId() {
        return buffer.getInt(CLOSED_SESSION_ID_OFFSET, BYTE_ORDER);
    }

    public StreamContinuesFlyweight closedSessionId(final int sessionId) {
        buffer.putInt(CLOSED_SESSION_ID_OFFSET, sessionId, BYTE_ORDER);
        return this;
    }
}
