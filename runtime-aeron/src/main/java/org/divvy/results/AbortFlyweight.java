package org.divvy.results;

import org.divvy.protocol.HeaderFlyweight;

/**
 * ABORT: cancel jobs, named by the ids their owner assigned; and ORPHAN_PROPAGATION, the same body: the
 * jobs became orphans (an ancestor's owner died), so the thief aborts them but keeps and announces their
 * finished descendants (thesis §3.3 step 3).
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                           Job Count                           |
 *  +---------------------------------------------------------------+
 *  |                  Owner Job Id (int64) x Job Count            ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AbortFlyweight extends HeaderFlyweight {
    /** The message type code (ABORT): Cancel jobs by their owner's ids. */
    public static final int TYPE = 8;
    /** The message type code (ORPHAN_PROPAGATION): the jobs are orphans: abort them, keep their finished parts. */
    public static final int ORPHAN_PROPAGATION_TYPE = 16;
    public static final int COUNT_OFFSET = HEADER_LENGTH;
    public static final int JOB_IDS_OFFSET = COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = JOB_IDS_OFFSET - HEADER_LENGTH;

    public int count() {
        return buffer.getInt(COUNT_OFFSET, BYTE_ORDER);
    }

    /** Sets the count and the frame length; then set each id with {@link #jobId(int, long)}. */
    public AbortFlyweight count(final int count) {
        buffer.putInt(COUNT_OFFSET, count, BYTE_ORDER);
        frameLength(frameLengthFor(count));
        return this;
    }

    public long jobId(final int index) {
        return buffer.getLong(JOB_IDS_OFFSET + index * 8, BYTE_ORDER);
    }

    public AbortFlyweight jobId(final int index, final long jobId) {
        buffer.putLong(JOB_IDS_OFFSET + index * 8, jobId, BYTE_ORDER);
        return this;
    }

    /** The frame length of an abort of {@code count} jobs. */
    public static int frameLengthFor(final int count) {
        return JOB_IDS_OFFSET + count * 8;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int count = count();
        return count >= 0 && count <= (frameLength - JOB_IDS_OFFSET) / 8 && frameLength == frameLengthFor(count);
    }
}
