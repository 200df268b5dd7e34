package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * LEAVE_ANSWER: the registry's answer to a challenged {@link LeaveRequestFlyweight LEAVE_REQUEST}, one line per node
 * named ({@code node 2: asked to leave}, {@code node 7: no such member}, ...). Under the join key, like the request.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                 Requester Nonce (int64, echoed)               |
 *  |                                                               |
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
    public static final int TEXT_OFFSET = NONCE_OFFSET + 8;
    public static final int MIN_BODY_LENGTH = 8 + VAR_LENGTH_PREFIX;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public String text() {
        return getVarString(TEXT_OFFSET);
    }

    /** Writes the fields and the frame length. */
    public LeaveAnswerFlyweight fields(final long nonce, final String text) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        frameLength(putVarString(TEXT_OFFSET, text));
        return this;
    }

    /** The frame length for this text, to size the buffer before writing. */
    public static int lengthBound(final String text) {
        return HEADER_LENGTH + MIN_BODY_LENGTH + 3 * text.length();
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return varFieldEnd(TEXT_OFFSET, frameLength) == frameLength;
    }
}
