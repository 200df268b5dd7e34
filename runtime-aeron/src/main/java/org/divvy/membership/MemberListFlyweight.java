package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * MEMBER_LIST: the registry's whole member list at the header's epoch. Sent to a joiner (with its
 * assigned id: the JOIN_ACK) and to every member after each change (assigned id {@link #NO_ASSIGNED_ID}).
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |            Assigned Id (the receiver's, or -1)                |
 *  +---------------------------------------------------------------+
 *  |                         Member Count                          |
 *  +---------------------------------------------------------------+
 *  | per member:  Id (int32) | State (int32: MemberState ordinal)  |
 *  |              Site (var) | Endpoint (var)                     ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Write with {@link #assignedId(int)}, then {@link #appendMember} per member (it updates the frame
 * length); read with {@link #memberCount()} and the member cursor methods.
 */
public final class MemberListFlyweight extends HeaderFlyweight {
    /** The message type code (MEMBER_LIST): The registry's member list, sent to a joiner (then it is the JOIN_ACK) and after every change. */
    public static final int TYPE = 2;
    public static final int ASSIGNED_ID_OFFSET = HEADER_LENGTH;
    public static final int MEMBER_COUNT_OFFSET = ASSIGNED_ID_OFFSET + 4;
    public static final int MEMBERS_OFFSET = MEMBER_COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = MEMBERS_OFFSET - HEADER_LENGTH;
    /** Bytes of one member without its variable fields' contents. */
    public static final int MIN_MEMBER_LENGTH = 8 + 2 * VAR_LENGTH_PREFIX;
    /** The assigned id of a broadcast list. */
    public static final int NO_ASSIGNED_ID = -1;

    /** Receives one member; strings are decoded per call, which is fine at membership rates. */
    @FunctionalInterface
    public interface MemberConsumer {
        void onMember(int id, int state, String site, String endpoint);
    }

    public int assignedId() {
        return buffer.getInt(ASSIGNED_ID_OFFSET, BYTE_ORDER);
    }

    /** Starts the body: the assigned id and an empty member list. */
    public MemberListFlyweight assignedId(final int assignedId) {
        buffer.putInt(ASSIGNED_ID_OFFSET, assignedId, BYTE_ORDER);
        buffer.putInt(MEMBER_COUNT_OFFSET, 0, BYTE_ORDER);
        frameLength(MEMBERS_OFFSET);
        return this;
    }

    public int memberCount() {
        return buffer.getInt(MEMBER_COUNT_OFFSET, BYTE_ORDER);
    }

    /** Appends one member at the current frame end. */
    public MemberListFlyweight appendMember(final int id, final int state, final String site, final String endpoint) {
        int at = frameLength();
        buffer.putInt(at, id, BYTE_ORDER);
        buffer.putInt(at + 4, state, BYTE_ORDER);
        at = putVarString(putVarString(at + 8, site), endpoint);
        buffer.putInt(MEMBER_COUNT_OFFSET, memberCount() + 1, BYTE_ORDER);
        frameLength(at);
        return this;
    }

    /** Calls {@code consumer} for every member of a validated frame; returns the count. */
    public int forEachMember(final MemberConsumer consumer) {
        final int count = memberCount();
        int at = MEMBERS_OFFSET;
        for (int i = 0; i < count; i++) {
            final int id = buffer.getInt(at, BYTE_ORDER);
            final int state = buffer.getInt(at + 4, BYTE_ORDER);
            final int siteAt = at + 8;
            final int endpointAt = skipVar(siteAt);
            consumer.onMember(id, state, getVarString(siteAt), getVarString(endpointAt));
            at = skipVar(endpointAt);
        }
        return count;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int count = memberCount();
        if (count < 0 || count > (frameLength - MEMBERS_OFFSET) / MIN_MEMBER_LENGTH) {
            return false;
        }
        int at = MEMBERS_OFFSET;
        for (int i = 0; i < count; i++) {
            if (frameLength - at < 8) {
                return false;
            }
            at = varFieldEnd(varFieldEnd(at + 8, frameLength), frameLength);
            if (at < 0) {
                return false;
            }
        }
        return at == frameLength;
    }
}
