package org.divvy.recovery;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * RESULT_REQUEST: a node about to recompute a restarted job found its stamp in its orphan table and asks
 * the holder for the result instead (thesis §3.3 step 5). The holder answers with JOB_RESULT quoting
 * {@code Requester Job Id}, as a thief returns a stolen job's outcome: the value, or NOT_HELD.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |             Requester Job Id (int64, the requester's)         |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                       Stamp (var bytes)                      ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class ResultRequestFlyweight extends HeaderFlyweight {
    /** The message type code (RESULT_REQUEST): send me the orphan result with this stamp. */
    public static final int TYPE = 15;
    public static final int REQUESTER_JOB_ID_OFFSET = HEADER_LENGTH;
    public static final int STAMP_OFFSET = REQUESTER_JOB_ID_OFFSET + 8;
    public static final int MIN_BODY_LENGTH = STAMP_OFFSET + VAR_LENGTH_PREFIX - HEADER_LENGTH;

    public long requesterJobId() {
        return buffer.getLong(REQUESTER_JOB_ID_OFFSET, BYTE_ORDER);
    }

    /** Writes the whole body and sets the frame length. */
    public ResultRequestFlyweight request(final long requesterJobId, final DirectBuffer stamp, final int stampOffset,
        final int stampLength) {
        buffer.putLong(REQUESTER_JOB_ID_OFFSET, requesterJobId, BYTE_ORDER);
        frameLength(putVarBytes(STAMP_OFFSET, stamp, stampOffset, stampLength));
        return this;
    }

    public int stampOffset() {
        return STAMP_OFFSET + VAR_LENGTH_PREFIX;
    }

    public int stampLength() {
        return varLength(STAMP_OFFSET);
    }

    /** The frame length of a request for a stamp of {@code stampLength} bytes. */
    public static long frameLengthFor(final int stampLength) {
        return STAMP_OFFSET + VAR_LENGTH_PREFIX + (long)stampLength;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return varFieldEnd(STAMP_OFFSET, frameLength) == frameLength;
    }
}
