package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * JOIN_CHALLENGE: the registry's answer to a JOIN without a valid cookie. The joiner sends its JOIN again
 * with the cookie; the run key id tells it which run key to use from now on.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                 Joiner Nonce (int64, echoed)                  |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Cookie (int64, never 0)                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Run Key Id (int32, never 0)                   |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The cookie is a MAC of the nonce and the joiner's endpoint under a key only the registry holds, so the
 * registry keeps no state per challenge; the nonce echo lets the joiner tell this answer from a replayed one.
 */
public final class JoinChallengeFlyweight extends HeaderFlyweight {
    /** The message type code (JOIN_CHALLENGE): the registry asks a joiner to prove its JOIN is fresh. */
    public static final int TYPE = 12;
    public static final int NONCE_OFFSET = HEADER_LENGTH;
    public static final int COOKIE_OFFSET = NONCE_OFFSET + 8;
    public static final int RUN_KEY_ID_OFFSET = COOKIE_OFFSET + 8;
    public static final int BODY_LENGTH = 20;
    public static final int MIN_BODY_LENGTH = BODY_LENGTH;
    public static final int FRAME_LENGTH = HEADER_LENGTH + BODY_LENGTH;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public long cookie() {
        return buffer.getLong(COOKIE_OFFSET, BYTE_ORDER);
    }

    public int runKeyId() {
        return buffer.getInt(RUN_KEY_ID_OFFSET, BYTE_ORDER);
    }

    /** Writes the fields and the frame length. */
    public JoinChallengeFlyweight fields(final long nonce, final long cookie, final int runKeyId) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        buffer.putLong(COOKIE_OFFSET, cookie, BYTE_ORDER);
        buffer.putInt(RUN_KEY_ID_OFFSET, runKeyId, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH;
    }
}
