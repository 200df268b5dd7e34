package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * JOIN: a node asks the registry for an id and the member list.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                       Site Label Length                       |
 *  +---------------------------------------------------------------+
 *  |                     Site Label (UTF-8)                       ...
 *  +---------------------------------------------------------------+
 *  |                    Reply Endpoint Length                      |
 *  +---------------------------------------------------------------+
 *  |           Reply Endpoint "host:port" (UTF-8)                 ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The joiner's header carries {@link HeaderFlyweight#UNASSIGNED_ID}; the registry answers at the
 * reply endpoint, which is also where every other node will reach the joiner.
 */
public final class JoinFlyweight extends HeaderFlyweight {
    /** The message type code (JOIN): A node asks the registry to join. */
    public static final int TYPE = 1;
    public static final int SITE_OFFSET = HEADER_LENGTH;
    /** Two empty variable-length fields. */
    public static final int MIN_BODY_LENGTH = 2 * VAR_LENGTH_PREFIX;

    public String site() {
        return getVarString(SITE_OFFSET);
    }

    public String endpoint() {
        return getVarString(skipVar(SITE_OFFSET));
    }

    /** Writes both fields and the frame length. */
    public JoinFlyweight siteAndEndpoint(final String site, final String endpoint) {
        final int end = putVarString(putVarString(SITE_OFFSET, site), endpoint);
        frameLength(end);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int end = varFieldEnd(varFieldEnd(SITE_OFFSET, frameLength), frameLength);
        return end == frameLength;
    }
}
