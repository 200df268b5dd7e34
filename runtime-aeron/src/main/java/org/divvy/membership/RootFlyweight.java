package org.divvy.membership;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/**
 * ROOT: a run's root as it travels (thesis §3.3, "the master may die"). A node that starts a run sends it to
 * the registry, which keeps it; the registry sends it to the node it chooses as master, and again to a new
 * master whenever the last one died. The root is a spawnable invocation: its job type's name and its receiver
 * and arguments encoded by the generated codec, so any node of the same build can run it.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |          Run Id (int64: the submitter's id, its count)        |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   Master Id (int32; to the registry: the submitter if it runs |
 *  |              the root itself, NO_MASTER to have one chosen)    |
 *  +---------------------------------------------------------------+
 *  |     Takeovers (int32: masters that died before; > 0: restart)  |
 *  +---------------------------------------------------------------+
 *  |                   Job Type Name (var string)                 ...
 *  +---------------------------------------------------------------+
 *  |                 Receiver and Arguments (var bytes)           ...
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RootFlyweight extends HeaderFlyweight {
    /** The message type code (ROOT). */
    public static final int TYPE = 17;
    /** In a submission: the registry chooses the master. */
    public static final int NO_MASTER = -1;
    public static final int RUN_ID_OFFSET = HEADER_LENGTH;
    public static final int MASTER_ID_OFFSET = RUN_ID_OFFSET + 8;
    public static final int TAKEOVERS_OFFSET = MASTER_ID_OFFSET + 4;
    public static final int TYPE_NAME_OFFSET = TAKEOVERS_OFFSET + 4;
    public static final int MIN_BODY_LENGTH = TYPE_NAME_OFFSET + 2 * VAR_LENGTH_PREFIX - HEADER_LENGTH;

    public long runId() {
        return buffer.getLong(RUN_ID_OFFSET, BYTE_ORDER);
    }

    public int masterId() {
        return buffer.getInt(MASTER_ID_OFFSET, BYTE_ORDER);
    }

    public RootFlyweight masterId(final int masterId) {
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        return this;
    }

    public RootFlyweight takeovers(final int takeovers) {
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        return this;
    }

    public int takeovers() {
        return buffer.getInt(TAKEOVERS_OFFSET, BYTE_ORDER);
    }

    public String jobTypeName() {
        return getVarString(TYPE_NAME_OFFSET);
    }

    public int argumentsOffset() {
        return skipVar(TYPE_NAME_OFFSET) + VAR_LENGTH_PREFIX;
    }

    public int argumentsLength() {
        return varLength(skipVar(TYPE_NAME_OFFSET));
    }

    /** Writes the whole body and sets the frame length. */
    public RootFlyweight root(final long runId, final int masterId, final int takeovers, final String jobTypeName,
        final DirectBuffer arguments, final int argumentsOffset, final int argumentsLength) {
        buffer.putLong(RUN_ID_OFFSET, runId, BYTE_ORDER);
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        frameLength(putVarBytes(putVarString(TYPE_NAME_OFFSET, jobTypeName), arguments, argumentsOffset, argumentsLength));
        return this;
    }

    /**
     * Where the arguments' bytes start in a root of {@code jobTypeName}: a frame of that length plus the arguments'
     * can be written with the arguments first (encoded straight into it, at this offset) and {@link #rootAround}
     * after.
     */
    public static int argumentsOffset(final String jobTypeName) {
        return TYPE_NAME_OFFSET + VAR_LENGTH_PREFIX + utf8Length(jobTypeName) + VAR_LENGTH_PREFIX;
    }

    /**
     * Writes the whole body but the arguments' bytes, which are in place already at
     * {@link #argumentsOffset(String)}, and sets the frame length: a root of hundreds of MB is not copied again.
     */
    public RootFlyweight rootAround(final long runId, final int masterId, final int takeovers, final String jobTypeName,
        final int argumentsLength) {
        buffer.putLong(RUN_ID_OFFSET, runId, BYTE_ORDER);
        buffer.putInt(MASTER_ID_OFFSET, masterId, BYTE_ORDER);
        buffer.putInt(TAKEOVERS_OFFSET, takeovers, BYTE_ORDER);
        final int at = putVarString(TYPE_NAME_OFFSET, jobTypeName);
        buffer.putInt(at, argumentsLength, BYTE_ORDER);
        frameLength(at + VAR_LENGTH_PREFIX + argumentsLength);
        return this;
    }

    /**
     * The frame length of a root, to size the buffer before writing. Exact, not a bound: the master checks a root
     * encoded in place against {@code maxMessageBytes} by its exact size, and the registry sizes the same root's
     * frame with this when it gives it to a new master, so a root that fit once fits again.
     */
    public static long lengthBound(final String jobTypeName, final int argumentsLength) {
        return TYPE_NAME_OFFSET + 2L * VAR_LENGTH_PREFIX + utf8Length(jobTypeName) + argumentsLength;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        final int nameEnd = varFieldEnd(TYPE_NAME_OFFSET, frameLength);
        return nameEnd >= 0 && varFieldEnd(nameEnd, frameLength) == frameLength;
    }
}
