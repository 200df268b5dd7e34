package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * LEAVE_ANSWER: the registry's answer to a challenged {@link LeaveRequestFlyweight LEAVE_REQUEST} for one of the
 * nodes it named ({@code node 2: asked to leave (...)}, {@code node 7: no such member ...}): one frame per node, so
 * each stays well under the join key's frame bound however many nodes a request names. Under the join key, like the
 * request.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                 Requester Nonce (int64, echoed)               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                         Node Id (int32)                       |
 *  +---------------------------------------------------------------+
 *  |                         Text Length                           |
 *  +---------------------------------------------------------------+
 *  |                         Text (UTF-8)                         ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LeaveAnswerFlyweight extends HeaderFlyweight {
    /** The message type code (LEAVE_ANSWER). */
    public static final int TYPE = 21;
    public static final int NONCE_OFFSET = HEADER_LENGTH;
    public static final int NODE_ID_OFFSET = NONCE_OFFSET + 8;
    public static final int TEXT_OFFSET = NODE_ID_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = 12 + VAR_LENGTH_PREFIX;
    /** The longest text an answer carries, so its frame fits the join key's bound whatever the text's characters. */
    public static final int MAX_TEXT_CHARS = 200;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public int nodeId() {
        return buffer.getInt(NODE_ID_OFFSET, BYTE_ORDER);
    }

    public String text() {
        return getVarString(TEXT_OFFSET);
    }

    /** Writes the fields (the text clipped to {@link #MAX_TEXT_CHARS}) and the frame length. */
    public LeaveAnswerFlyweight fields(final long nonce, final int nodeId, final String text) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        buffer.putInt(NODE_ID_OFFSET, nodeId, BYTE_ORDER);
        frameLength(putVarString(TEXT_OFFSET, text.length() <= MAX_TEXT_CHARS ? text : text.substring(0, MAX_TEXT_CHARS)));
        return this;
    }

    /** The frame length for this text, to size the buffer before writing. */
    public static int lengthBound(final String text) {
        return HEADER_LENGTH + MIN_BODY_LENGTH + 3 * Math.min(text.length(), MAX_TEXT_CHARS);
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return varFieldEnd(TEXT_OFFSET, frameLength) == frameLength;
    }
}
