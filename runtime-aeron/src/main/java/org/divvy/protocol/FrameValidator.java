package org.divvy.protocol;

import org.agrona.DirectBuffer;

/**
 * Checks a received frame before anything reads it: header length, version, frame length, type, the
 * type's minimum body length, then every variable-length field and count against the frame's end. A
 * frame that fails is counted in {@link FrameCounters} under its reason and must be dropped.
 * Nothing here throws on bad input, and a frame that passes can be read with its flyweight without any
 * further bounds check.
 *
 * <p>Owned by one thread (the network agent); allocates nothing per frame.
 */
public final class FrameValidator {
    /** Returned by {@link #validate} for a frame to drop. */
    public static final int INVALID = 0;

    private final FrameCounters counters;
    private final HeaderFlyweight[] bodies = new HeaderFlyweight[MessageType.MAX_TYPE + 1];

    public FrameValidator(final FrameCounters counters) {
        this.counters = counters;
        bodies[MessageType.JOIN] = new JoinFlyweight();
        bodies[MessageType.MEMBER_LIST] = new MemberListFlyweight();
        bodies[MessageType.LEAVE] = new HeaderFlyweight();
        bodies[MessageType.HEARTBEAT] = new HeaderFlyweight();
        bodies[MessageType.STEAL_REQUEST] = new StealRequestFlyweight();
        bodies[MessageType.STEAL_REPLY] = new StealReplyFlyweight();
        bodies[MessageType.JOB_RESULT] = new JobResultFlyweight();
        bodies[MessageType.ABORT] = new AbortFlyweight();
        bodies[MessageType.TERMINATE] = new TerminateFlyweight();
        bodies[MessageType.CHUNK] = new ChunkFlyweight();
        bodies[MessageType.RUN_STARTED] = new HeaderFlyweight();
    }

    public FrameCounters counters() {
        return counters;
    }

    /**
     * @return the frame's {@link MessageType} if it is well formed, else {@link #INVALID} after
     * counting the reason.
     */
    public int validate(final DirectBuffer buffer, final int offset, final int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH || offset < 0 || offset + length > buffer.capacity()) {
            FrameCounters.increment(counters.truncated);
            return INVALID;
        }
        final int version = buffer.getByte(offset + HeaderFlyweight.VERSION_OFFSET) & 0xFF;
        if (version != HeaderFlyweight.CURRENT_VERSION) {
            FrameCounters.increment(counters.badVersion);
            return INVALID;
        }
        final int frameLength = buffer.getInt(offset + HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER);
        if (frameLength > length) {
            FrameCounters.increment(counters.truncated);
            return INVALID;
        }
        if (frameLength != length) {
            FrameCounters.increment(counters.badLength);
            return INVALID;
        }
        final int type = buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
        if (!MessageType.isKnown(type)) {
            FrameCounters.increment(counters.unknownType);
            return INVALID;
        }
        if (length - HeaderFlyweight.HEADER_LENGTH < MessageType.minBodyLength(type)) {
            FrameCounters.increment(counters.truncated);
            return INVALID;
        }
        final HeaderFlyweight body = bodies[type];
        body.wrap(buffer, offset, length);
        if (!body.isBodyWellFormed(length)) {
            FrameCounters.increment(counters.malformed);
            return INVALID;
        }
        return type;
    }
}
