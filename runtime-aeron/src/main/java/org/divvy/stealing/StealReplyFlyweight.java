package org.divvy.stealing;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * STEAL_REPLY: a victim's answer, "none" or one job.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                    Request Id (int64)                         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |              Owner Job Id (int64, the victim assigns)         |
 *  |                                                               |
 *  +---------------+---------------+-------------------------------+
 *  |    Has Job    |   Restarted   |           Reserved            |
 *  +---------------+---------------+-------------------------------+
 *  |  only when Has Job = 1:                                       |
 *  |  Job Type Name (var, UTF-8) | Stamp (var) | Arguments (var)  ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * The thief returns the job's result to the victim quoting {@code Owner Job Id}. {@code Restarted} is 1
 * when the victim recomputes the job after a crash: the thief looks its descendants up in its orphan table. The arguments are the
 * bytes the job's generated codec wrote ({@code Job.encodeArguments}).
 */
public final class StealReplyFlyweight extends HeaderFlyweight {
    /** The message type code (STEAL_REPLY): A victim's answer to a steal request: a job or none. */
    public static final int TYPE = 6;
    public static final int REQUEST_ID_OFFSET = HEADER_LENGTH;
    public static final int OWNER_JOB_ID_OFFSET = REQUEST_ID_OFFSET + 8;
    public static final int HAS_JOB_OFFSET = OWNER_JOB_ID_OFFSET + 8;
    public static final int RESTARTED_OFFSET = HAS_JOB_OFFSET + 1;
    public static final int JOB_TYPE_OFFSET = HAS_JOB_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = JOB_TYPE_OFFSET - HEADER_LENGTH;
    /** The frame length of a "none" reply. */
    public static final int NONE_FRAME_LENGTH = JOB_TYPE_OFFSET;

    public long requestId() {
        return buffer.getLong(REQUEST_ID_OFFSET, BYTE_ORDER);
    }

    public StealReplyFlyweight requestId(final long requestId) {
        buffer.putLong(REQUEST_ID_OFFSET, requestId, BYTE_ORDER);
        return this;
    }

    public long ownerJobId() {
        return buffer.getLong(OWNER_JOB_ID_OFFSET, BYTE_ORDER);
    }

    public StealReplyFlyweight ownerJobId(final long ownerJobId) {
        buffer.putLong(OWNER_JOB_ID_OFFSET, ownerJobId, BYTE_ORDER);
        return this;
    }

    public boolean hasJob() {
        return buffer.getByte(HAS_JOB_OFFSET) != 0;
    }

    /** Makes this a "none" reply and sets the frame length. */
    public StealReplyFlyweight none() {
        buffer.putInt(HAS_JOB_OFFSET, 0, BYTE_ORDER);
        ownerJobId(0);
        frameLength(NONE_FRAME_LENGTH);
        return this;
    }

    /** Writes the job's variable fields and sets the frame length. */
    public StealReplyFlyweight job(
        final String jobTypeName,
        final DirectBuffer stamp, final int stampOffset, final int stampLength,
        final DirectBuffer arguments, final int argumentsOffset, final int argumentsLength) {
        buffer.putInt(HAS_JOB_OFFSET, 1, BYTE_ORDER);
        int at = putVarString(JOB_TYPE_OFFSET, jobTypeName);
        at = putVarBytes(at, stamp, stampOffset, stampLength);
        at = putVarBytes(at, arguments, argumentsOffset, argumentsLength);
        frameLength(at);
        return this;
    }

    /**
     * Marks a job reply whose variable fields were written in place, from {@link #JOB_TYPE_OFFSET} (job
     * type, stamp, arguments, each a 4-byte little-endian length then its bytes), and sets the frame length.
     */
    public StealReplyFlyweight jobWrittenInPlace(final int frameLength) {
        buffer.putInt(HAS_JOB_OFFSET, 1, BYTE_ORDER);
        frameLength(frameLength);
        return this;
    }

    public boolean restarted() {
        return buffer.getByte(RESTARTED_OFFSET) == 1;
    }

    /** Marks a job reply's job as restarted; after {@link #job} or {@link #jobWrittenInPlace}, which clear it. */
    public StealReplyFlyweight restarted(final boolean restarted) {
        buffer.putByte(RESTARTED_OFFSET, (byte)(restarted ? 1 : 0));
        return this;
    }

    public String jobTypeName() {
        return getVarString(JOB_TYPE_OFFSET);
    }

    public int stampOffset() {
        return skipVar(JOB_TYPE_OFFSET) + VAR_LENGTH_PREFIX;
    }

    public int stampLength() {
        return varLength(skipVar(JOB_TYPE_OFFSET));
    }

    public int argumentsOffset() {
        return skipVar(skipVar(JOB_TYPE_OFFSET)) + VAR_LENGTH_PREFIX;
    }

    public int argumentsLength() {
        return varLength(skipVar(skipVar(JOB_TYPE_OFFSET)));
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final byte hasJob = buffer.getByte(HAS_JOB_OFFSET);
        if (hasJob == 0) {
            return frameLength == NONE_FRAME_LENGTH;
        }
        if (hasJob != 1 || (buffer.getByte(RESTARTED_OFFSET) & 0xFE) != 0) {
            return false;
        }
        int at = varFieldEnd(JOB_TYPE_OFFSET, frameLength);
        at = varFieldEnd(at, frameLength);
        at = varFieldEnd(at, frameLength);
        return at == frameLength;
    }
}
