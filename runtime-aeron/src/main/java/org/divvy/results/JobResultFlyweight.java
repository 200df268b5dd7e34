package org.divvy.results;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * JOB_RESULT: the outcome of a stolen job, sent by the thief to the job's owner.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                    Owner Job Id (int64)                       |
 *  |                                                               |
 *  +---------------+-----------------------------------------------+
 *  |    Outcome    |                  Reserved                     |
 *  +---------------+-----------------------------------------------+
 *  | VALUE:     Result (var: bytes of the job's result codec)     ...
 *  | EXCEPTION: Class Name (var) | Message (var) | Stack Trace (var)...
 *  | ABORTED:   nothing                                            |
 *  | NOT_HELD:  nothing                                            |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Exceptions travel as text, never serialized: the owner rebuilds a remote exception from them. The same
 * message answers a RESULT_REQUEST (fault tolerance): the orphan result it asked for, or NOT_HELD when this
 * node does not hold it (the requester then computes the job itself).
 */
public final class JobResultFlyweight extends HeaderFlyweight {
    /** The message type code (JOB_RESULT): The outcome of a stolen job, sent back to its owner. */
    public static final int TYPE = 7;
    /** The job returned normally; the result bytes follow. */
    public static final int OUTCOME_VALUE = 0;
    /** The job threw; class name, message and stack trace text follow. */
    public static final int OUTCOME_EXCEPTION = 1;
    /** The job was aborted. */
    public static final int OUTCOME_ABORTED = 2;
    /** The answer to a result request for an orphan result this node does not hold. */
    public static final int OUTCOME_NOT_HELD = 3;

    public static final int OWNER_JOB_ID_OFFSET = HEADER_LENGTH;
    public static final int OUTCOME_OFFSET = OWNER_JOB_ID_OFFSET + 8;
    public static final int PAYLOAD_OFFSET = OUTCOME_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = PAYLOAD_OFFSET - HEADER_LENGTH;

    public long ownerJobId() {
        return buffer.getLong(OWNER_JOB_ID_OFFSET, BYTE_ORDER);
    }

    public JobResultFlyweight ownerJobId(final long ownerJobId) {
        buffer.putLong(OWNER_JOB_ID_OFFSET, ownerJobId, BYTE_ORDER);
        return this;
    }

    public int outcome() {
        return buffer.getByte(OUTCOME_OFFSET) & 0xFF;
    }

    /** Writes a VALUE outcome and its bytes; sets the frame length. */
    public JobResultFlyweight value(final DirectBuffer result, final int offset, final int length) {
        buffer.putInt(OUTCOME_OFFSET, OUTCOME_VALUE, BYTE_ORDER);
        frameLength(putVarBytes(PAYLOAD_OFFSET, result, offset, length));
        return this;
    }

    /**
     * Marks a VALUE outcome whose result was written in place (at {@link #PAYLOAD_OFFSET}: a 4-byte
     * little-endian length, then the bytes) and sets the frame length.
     */
    public JobResultFlyweight valueWrittenInPlace(final int frameLength) {
        buffer.putInt(OUTCOME_OFFSET, OUTCOME_VALUE, BYTE_ORDER);
        frameLength(frameLength);
        return this;
    }

    /** Writes an EXCEPTION outcome; sets the frame length. */
    public JobResultFlyweight exception(final String className, final String message, final String stackTrace) {
        buffer.putInt(OUTCOME_OFFSET, OUTCOME_EXCEPTION, BYTE_ORDER);
        frameLength(putVarString(putVarString(putVarString(PAYLOAD_OFFSET, className), message), stackTrace));
        return this;
    }

    /** Writes an ABORTED outcome; sets the frame length. */
    public JobResultFlyweight aborted() {
        buffer.putInt(OUTCOME_OFFSET, OUTCOME_ABORTED, BYTE_ORDER);
        frameLength(PAYLOAD_OFFSET);
        return this;
    }

    /** Writes a NOT_HELD outcome; sets the frame length. */
    public JobResultFlyweight notHeld() {
        buffer.putInt(OUTCOME_OFFSET, OUTCOME_NOT_HELD, BYTE_ORDER);
        frameLength(PAYLOAD_OFFSET);
        return this;
    }

    public int resultOffset() {
        return PAYLOAD_OFFSET + VAR_LENGTH_PREFIX;
    }

    public int resultLength() {
        return varLength(PAYLOAD_OFFSET);
    }

    public String exceptionClassName() {
        return getVarString(PAYLOAD_OFFSET);
    }

    public String exceptionMessage() {
        return getVarString(skipVar(PAYLOAD_OFFSET));
    }

    public String exceptionStackTrace() {
        return getVarString(skipVar(skipVar(PAYLOAD_OFFSET)));
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        if ((buffer.getInt(OUTCOME_OFFSET, BYTE_ORDER) & 0xFFFFFF00) != 0) {
            return false;
        }
        switch (outcome()) {
            case OUTCOME_VALUE:
                return varFieldEnd(PAYLOAD_OFFSET, frameLength) == frameLength;
            case OUTCOME_EXCEPTION:
                return varFieldEnd(varFieldEnd(varFieldEnd(PAYLOAD_OFFSET, frameLength), frameLength), frameLength) == frameLength;
            case OUTCOME_ABORTED:
            case OUTCOME_NOT_HELD:
                return frameLength == PAYLOAD_OFFSET;
            default:
                return false;
        }
    }
}
