package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * JOIN_REFUSED: the registry will not let this joiner in, and says why (a different build of the
 * application). The joiner's join fails with the reason.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                 Joiner Nonce (int64, echoed)                  |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                         Reason Length                         |
 *  +---------------------------------------------------------------+
 *  |                        Reason (UTF-8)                        ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class JoinRefusedFlyweight extends HeaderFlyweight {
    /** The message type code (JOIN_REFUSED): the registry refuses a joiner, with the reason. */
    public static final int TYPE = 13;
    public static final int NONCE_OFFSET = HEADER_LENGTH;
    public static final int REASON_OFFSET = NONCE_OFFSET + 8;
    public static final int MIN_BODY_LENGTH = 8 + VAR_LENGTH_PREFIX;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public String reason() {
        return getVarString(REASON_OFFSET);
    }

    /** Writes the fields and the frame length. */
    public JoinRefusedFlyweight fields(final long nonce, final String reason) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        frameLength(putVarString(REASON_OFFSET, reason));
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return varFieldEnd(REASON_OFFSET, frameLength) == frameLength;
    }
}
