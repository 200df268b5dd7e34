package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * LEAVE_REQUEST: an operator's tool ({@code divvy leave}) asks the registry to make members leave gracefully. The
 * tool is no member, so the request travels under the join key (the cluster secret alone) and is challenged like a
 * JOIN: without the cookie of a {@link JoinChallengeFlyweight JOIN_CHALLENGE} for its nonce and endpoint the registry
 * only answers with the challenge, which goes to the endpoint the request names. (What stops a recorded request from
 * being replayed is the frame authenticator's per-stream sequence check, and the cookie key being random per registry,
 * so no request of an earlier run is accepted.) With it, the registry sends each named alive member a LEAVE_ORDER and
 * answers with a {@link LeaveAnswerFlyweight LEAVE_ANSWER} per node.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                      Nonce (int64)                            |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Cookie (int64, 0 = none yet)                  |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Requester Endpoint Length                     |
 *  +---------------------------------------------------------------+
 *  |             Requester Endpoint "host:port" (UTF-8)           ...
 *  +---------------------------------------------------------------+
 *  |                      Node Id Count (int32)                    |
 *  +---------------------------------------------------------------+
 *  |                      Node Ids (int32 each)                   ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LeaveRequestFlyweight extends HeaderFlyweight {
    /** The message type code (LEAVE_REQUEST). */
    public static final int TYPE = 20;
    /** The most node ids one request names: the frame stays well under the join key's 1 KiB frame bound. */
    public static final int MAX_NODE_IDS = 128;
    public static final int NONCE_OFFSET = HEADER_LENGTH;
    public static final int COOKIE_OFFSET = NONCE_OFFSET + 8;
    public static final int ENDPOINT_OFFSET = COOKIE_OFFSET + 8;
    /** The fixed fields, an empty endpoint and no ids. */
    public static final int MIN_BODY_LENGTH = 16 + VAR_LENGTH_PREFIX + 4;

    public long nonce() {
        return buffer.getLong(NONCE_OFFSET, BYTE_ORDER);
    }

    public long cookie() {
        return buffer.getLong(COOKIE_OFFSET, BYTE_ORDER);
    }

    /** Where the requester receives the challenge and the answer. */
    public String endpoint() {
        return getVarString(ENDPOINT_OFFSET);
    }

    public int nodeIdCount() {
        return buffer.getInt(skipVar(ENDPOINT_OFFSET), BYTE_ORDER);
    }

    public int nodeId(final int index) {
        return buffer.getInt(skipVar(ENDPOINT_OFFSET) + 4 + 4 * index, BYTE_ORDER);
    }

    /** Writes every field and the frame length. */
    public LeaveRequestFlyweight fields(final long nonce, final long cookie, final String endpoint, final int[] nodeIds) {
        buffer.putLong(NONCE_OFFSET, nonce, BYTE_ORDER);
        buffer.putLong(COOKIE_OFFSET, cookie, BYTE_ORDER);
        final int countAt = putVarString(ENDPOINT_OFFSET, endpoint);
        buffer.putInt(countAt, nodeIds.length, BYTE_ORDER);
        for (int i = 0; i < nodeIds.length; i++) {
            buffer.putInt(countAt + 4 + 4 * i, nodeIds[i], BYTE_ORDER);
        }
        frameLength(countAt + 4 + 4 * nodeIds.length);
        return this;
    }

    /** The frame length for these fields, to size the buffer before writing. */
    public static int lengthBound(final String endpoint, final int nodeIds) {
        return HEADER_LENGTH + MIN_BODY_LENGTH + 3 * endpoint.length() + 4 * nodeIds;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int countAt = varFieldEnd(ENDPOINT_OFFSET, frameLength);
        if (countAt < 0 || countAt + 4 > frameLength) {
            return false;
        }
        final int count = buffer.getInt(countAt, BYTE_ORDER);
        return count >= 0 && count <= MAX_NODE_IDS && countAt + 4 + 4 * count == frameLength;
    }
}
