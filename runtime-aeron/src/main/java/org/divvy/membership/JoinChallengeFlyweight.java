package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * JOIN_CHALLENGE: the registry's answer to a JOIN without a valid cookie. The joiner sends its JOIN again
 * with the cookie; the run key id tells it which run key to use from now on, and the registry's endpoint
 * where to send from now on (its own, which run-key frames are bound to, whatever alias {@code --join} used).
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
 *  |                  Registry Endpoint Length                     |
 *  +---------------------------------------------------------------+
 *  |             Registry Endpoint "host:port" (UTF-8)            ...
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
    public static final int REGISTRY_ENDPOINT_OFFSET = RUN_KEY_ID_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = REGISTRY_ENDPOINT_OFFSET + VAR_LENGTH_PREFIX - HEADER_LENGTH;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public long cookie() {
        return buffer.getLong(COOKIE_OFFSET, BYTE_ORDER);
    }

    public int runKeyId() {
        return buffer.getInt(RUN_KEY_ID_OFFSET, BYTE_ORDER);
    }

    public String registryEndpoint() {
        return getVarString(REGISTRY_ENDPOINT_OFFSET);
    }

    /** Writes the fields and the frame length. */
    public JoinChallengeFlyweight fields(final long nonce, final long cookie, final int runKeyId,
        final String registryEndpoint) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        buffer.putLong(COOKIE_OFFSET, cookie, BYTE_ORDER);
        buffer.putInt(RUN_KEY_ID_OFFSET, runKeyId, BYTE_ORDER);
        frameLength(putVarString(REGISTRY_ENDPOINT_OFFSET, registryEndpoint));
        return this;
    }

    /** The frame length for {@code registryEndpoint}, to size the buffer before writing. */
    public static int lengthBound(final String registryEndpoint) {
        return REGISTRY_ENDPOINT_OFFSET + VAR_LENGTH_PREFIX + 3 * registryEndpoint.length();
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return varFieldEnd(REGISTRY_ENDPOINT_OFFSET, frameLength) == frameLength;
    }
}
