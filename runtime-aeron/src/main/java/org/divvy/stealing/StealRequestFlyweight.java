package org.divvy.stealing;

import org.divvy.protocol.HeaderFlyweight;

/**
 * STEAL_REQUEST: a thief asks a victim for its oldest job.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                    Request Id (int64)                         |
 *  |                                                               |
 *  +---------------+---------------+-------------------------------+
 *  |  Wide Area    | Wants Orphans |           Reserved            |
 *  +---------------+---------------+-------------------------------+
 * </pre>
 *
 * The thief is the header's sender. The request id is the thief's; the reply echoes it, so a late reply to a request the thief gave up on
 * is recognised. {@code Wide Area} is 1 for CRS's asynchronous wide-area steal, else 0. {@code Wants
 * Orphans} is 1 while the thief has no orphan table yet (it joined during a run): the victim answers with
 * its table as well (ORPHAN_TUPLES).
 */
public final class StealRequestFlyweight extends HeaderFlyweight {
    /** The message type code (STEAL_REQUEST): A thief asks a victim for a job. */
    public static final int TYPE = 5;
    public static final int REQUEST_ID_OFFSET = HEADER_LENGTH;
    public static final int WIDE_AREA_OFFSET = REQUEST_ID_OFFSET + 8;
    /** A node that has no orphan table yet asks the victim for its table with its steal requests (thesis §3.5). */
    public static final int WANTS_ORPHAN_TABLE_OFFSET = WIDE_AREA_OFFSET + 1;
    public static final int BODY_LENGTH = 12;
    public static final int MIN_BODY_LENGTH = BODY_LENGTH;
    public static final int FRAME_LENGTH = HEADER_LENGTH + BODY_LENGTH;

    public long requestId() {
        return buffer.getLong(REQUEST_ID_OFFSET, BYTE_ORDER);
    }

    public StealRequestFlyweight requestId(final long requestId) {
        buffer.putLong(REQUEST_ID_OFFSET, requestId, BYTE_ORDER);
        return this;
    }

    public boolean wideArea() {
        return buffer.getByte(WIDE_AREA_OFFSET) != 0;
    }

    /** Sets the flag, clears the reserved bytes and sets the frame length. */
    public StealRequestFlyweight wideArea(final boolean wideArea) {
        buffer.putInt(WIDE_AREA_OFFSET, wideArea ? 1 : 0, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    public boolean wantsOrphanTable() {
        return buffer.getByte(WANTS_ORPHAN_TABLE_OFFSET) != 0;
    }

    /** Sets the orphan-table request flag; after {@link #wideArea}, which clears it. */
    public StealRequestFlyweight wantsOrphanTable(final boolean wants) {
        buffer.putByte(WANTS_ORPHAN_TABLE_OFFSET, (byte)(wants ? 1 : 0));
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH;
    }
}
