package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * JOIN: a node asks the registry for an id and the member list.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                 Joiner Nonce (int64, random per join)         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |           Cookie (int64, from the registry's challenge; 0)    |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                       Site Label Length                       |
 *  +---------------------------------------------------------------+
 *  |                     Site Label (UTF-8)                       ...
 *  +---------------------------------------------------------------+
 *  |                    Reply Endpoint Length                      |
 *  +---------------------------------------------------------------+
 *  |           Reply Endpoint "host:port" (UTF-8)                 ...
 *  +---------------------------------------------------------------+
 *  |                     Build Digest Length                       |
 *  +---------------------------------------------------------------+
 *  |       Build Digest (SHA-256 of job types and codecs; or none) ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The joiner's header carries {@link HeaderFlyweight#UNASSIGNED_ID}; the registry answers at the
 * reply endpoint, which is also where every other node will reach the joiner. A JOIN without the cookie
 * of a fresh {@link JoinChallengeFlyweight challenge} for its nonce and endpoint is answered with one (so a
 * recorded JOIN replayed later joins nobody). An empty digest is a member that runs no jobs (a tool).
 */
public final class JoinFlyweight extends HeaderFlyweight {
    /** The message type code (JOIN): A node asks the registry to join. */
    public static final int TYPE = 1;
    public static final int NONCE_OFFSET = HEADER_LENGTH;
    public static final int COOKIE_OFFSET = NONCE_OFFSET + 8;
    public static final int SITE_OFFSET = COOKIE_OFFSET + 8;
    /** The fixed fields and three empty variable-length fields. */
    public static final int MIN_BODY_LENGTH = 16 + 3 * VAR_LENGTH_PREFIX;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public long cookie() {
        return buffer.getLong(COOKIE_OFFSET, BYTE_ORDER);
    }

    public String site() {
        return getVarString(SITE_OFFSET);
    }

    public String endpoint() {
        return getVarString(skipVar(SITE_OFFSET));
    }

    /** The build digest's bytes (a copy; joins are rare). */
    public byte[] digest() {
        final int at = skipVar(skipVar(SITE_OFFSET));
        final byte[] digest = new byte[varLength(at)];
        buffer.getBytes(at + VAR_LENGTH_PREFIX, digest);
        return digest;
    }

    /** Writes every field and the frame length. */
    public JoinFlyweight fields(final long nonce, final long cookie, final String site, final String endpoint,
        final byte[] digest) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        buffer.putLong(COOKIE_OFFSET, cookie, BYTE_ORDER);
        final int digestAt = putVarString(putVarString(SITE_OFFSET, site), endpoint);
        buffer.putInt(digestAt, digest.length, BYTE_ORDER);
        buffer.putBytes(digestAt + VAR_LENGTH_PREFIX, digest);
        frameLength(digestAt + VAR_LENGTH_PREFIX + digest.length);
        return this;
    }

    /** The frame length for these fields, to size the buffer before writing. */
    public static int lengthBound(final String site, final String endpoint, final byte[] digest) {
        return HEADER_LENGTH + MIN_BODY_LENGTH + 3 * (site.length() + endpoint.length()) + digest.length;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int end = varFieldEnd(varFieldEnd(varFieldEnd(SITE_OFFSET, frameLength), frameLength), frameLength);
        return end == frameLength;
    }
}
