package org.divvy.recovery;

/**
 * RESULT_COPIES: copies of jobs that ran long on the sender, with their results, for its site's keeper on another
 * site ({@link ResultCopies}). The entries are ORPHAN_RESULTS' ({@link OrphanResultsFlyweight}: stamp, type,
 * receiver and arguments, result), after the run they belong to: a keeper keeps only copies of the run it is in,
 * however late a copy of an earlier run arrives.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                     Run Id (the announcing master's)          |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                          Entry Count                          |
 *  +---------------------------------------------------------------+
 *  |  Entry Count x { Stamp | Job Type Name | Receiver and          |
 *  |    Arguments | Result }, as ORPHAN_RESULTS                   ...
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Loss-tolerant: a lost message only costs recomputation, should the sender's site die.
 */
public final class ResultCopiesFlyweight extends OrphanResultsFlyweight {
    /** The message type code (RESULT_COPIES). */
    public static final int TYPE = 32;
    public static final int RUN_ID_OFFSET = HEADER_LENGTH;
    public static final int COPIES_COUNT_OFFSET = RUN_ID_OFFSET + 8;
    public static final int COPIES_OFFSET = COPIES_COUNT_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = COPIES_OFFSET - HEADER_LENGTH;

    public ResultCopiesFlyweight() {
        super(COPIES_COUNT_OFFSET);
    }

    /** The run the copies belong to (as {@code LifecycleHandler} names runs). */
    public long runId() {
        return buffer.getLong(RUN_ID_OFFSET, BYTE_ORDER);
    }

    public ResultCopiesFlyweight runId(final long runId) {
        buffer.putLong(RUN_ID_OFFSET, runId, BYTE_ORDER);
        return this;
    }
}
