package org.divvy.membership;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * RUN_RESULT: how a run's root ended. The master sends it to the registry; the registry forwards it to the
 * node that submitted the root, or, when that node is gone, answers the master with an END notice (nobody
 * waits: the master ends the computation). The value is the root's result written by its job's generated
 * result codec; a failure travels as its class name and message, and the value as text too, for a registry that has not the
 * application's classes.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                          Run Id (int64)                       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Master Id (int32: who ran it)                 |
 *  +---------------------------------------------------------------+
 *  |            Takeovers (int32: masters that died before)        |
 *  +---------------------------------------------------------------+
 *  |           Outcome (int32: VALUE, FAILED, END_NOTICE)          |
 *  +---------------------------------------------------------------+
 *  |          Master's Statistics (var string, as text)           ...
 *  +---------------------------------------------------------------+
 *  | Text (var string: the value as text, or a failure's class name, |
 *  |              a newline and its message)                      ...
 *  +---------------------------------------------------------------+
 *  |                    Result (var bytes)                        ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RunResultFlyweight extends HeaderFlyweight {
    /** The message type code (RUN_RESULT). */
    public static final int TYPE = 18;
    /** The root returned; the result holds its value. */
    public static final int OUTCOME_VALUE = 0;
    /** The root threw, or could not run; the failure says why. */
    public static final int OUTCOME_FAILED = 1;
    /** Registry to master: nobody waits for this run's result any more, end the computation. */
    public static final int OUTCOME_END_NOTICE = 2;
    /**
     * Submitter to registry: the value the registry forwarded arrived. Until then the registry keeps the run, so a
     * submitter that dies before it is declared dead does not take the only copy of the outcome with it.
     */
    public static final int OUTCOME_RECEIVED = 3;
    public static final int RUN_ID_OFFSET = HEADER_LENGTH;
    public static final int MASTER_ID_OFFSET = RUN_ID_OFFSET + 8;
    public static final int TAKEOVERS_OFFSET = MASTER_ID_OFFSET + 4;
    public static final int OUTCOME_OFFSET = TAKEOVERS_OFFSET + 4;
    public static final int STATISTICS_OFFSET = OUTCOME_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = STATISTICS_OFFSET + 3 * VAR_LENGTH_PREFIX - HEADER_LENGTH;

    public long runId() {
        return buffer.getLong(RUN_ID_OFFSET, BYTE_ORDER);
    }

    public int masterId() {
        return buffer.getInt(MASTER_ID_OFFSET, BYTE_ORDER);
    }

    public RunResultFlyweight masterId(final int masterId) {
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        return this;
    }

    public int takeovers() {
        return buffer.getInt(TAKEOVERS_OFFSET, BYTE_ORDER);
    }

    public RunResultFlyweight takeovers(final int takeovers) {
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        return this;
    }

    public int outcome() {
        return buffer.getInt(OUTCOME_OFFSET, BYTE_ORDER);
    }

    public RunResultFlyweight outcome(final int outcome) {
        buffer.putInt(OUTCOME_OFFSET, outcome, BYTE_ORDER);
        return this;
    }

    public String statistics() {
        return getVarString(STATISTICS_OFFSET);
    }

    public String text() {
        return getVarString(skipVar(STATISTICS_OFFSET));
    }

    public int resultOffset() {
        return skipVar(skipVar(STATISTICS_OFFSET)) + VAR_LENGTH_PREFIX;
    }

    public int resultLength() {
        return varLength(skipVar(skipVar(STATISTICS_OFFSET)));
    }

    /**
     * Where the value's bytes start in a result with {@code statistics} and {@code text}: the value can be encoded
     * straight into a frame at this offset and {@link #resultAround} written after.
     */
    public static int resultOffset(final String statistics, final String text) {
        return STATISTICS_OFFSET + VAR_LENGTH_PREFIX + utf8Length(statistics) + VAR_LENGTH_PREFIX + utf8Length(text) +
            VAR_LENGTH_PREFIX;
    }

    /** Writes the whole body but the value's bytes, in place already at {@link #resultOffset(String, String)}. */
    public RunResultFlyweight resultAround(final long runId, final int masterId, final int takeovers, final int outcome,
        final String statistics, final String text, final int resultLength) {
        buffer.putLong(RUN_ID_OFFSET, runId, BYTE_ORDER);
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        buffer.putInt(OUTCOME_OFFSET, outcome, BYTE_ORDER);
        final int at = putVarString(putVarString(STATISTICS_OFFSET, statistics), text);
        buffer.putInt(at, resultLength, BYTE_ORDER);
        frameLength(at + VAR_LENGTH_PREFIX + resultLength);
        return this;
    }

    /** Writes the whole body and sets the frame length. */
    public RunResultFlyweight result(final long runId, final int masterId, final int takeovers, final int outcome,
        final String statistics, final String text, final DirectBuffer result, final int resultOffset,
        final int resultLength) {
        buffer.putLong(RUN_ID_OFFSET, runId, BYTE_ORDER);
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        buffer.putInt(OUTCOME_OFFSET, outcome, BYTE_ORDER);
        final int textAt = putVarString(STATISTICS_OFFSET, statistics);
        frameLength(putVarBytes(putVarString(textAt, text), result, resultOffset, resultLength));
        return this;
    }

    /**
     * The frame length of a result, to size the buffer before writing. Exact, not a bound: a value the master encoded
     * in place and checked by its exact size must fit again when the registry forwards it.
     */
    public static long lengthBound(final String statistics, final String text, final int resultLength) {
        return STATISTICS_OFFSET + 3L * VAR_LENGTH_PREFIX + utf8Length(statistics) + utf8Length(text) + resultLength;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int textAt = varFieldEnd(STATISTICS_OFFSET, frameLength);
        final int resultAt = textAt < 0 ? -1 : varFieldEnd(textAt, frameLength);
        return resultAt >= 0 && varFieldEnd(resultAt, frameLength) == frameLength;
    }
}
