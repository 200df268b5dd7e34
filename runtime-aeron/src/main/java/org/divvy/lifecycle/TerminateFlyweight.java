package org.divvy.lifecycle;

import org.divvy.protocol.HeaderFlyweight;

/**
 * TERMINATE: the root job finished (or the run was stopped); every node exits with the code.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                      Exit Code (int32)                        |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class TerminateFlyweight extends HeaderFlyweight {
    /** The message type code (TERMINATE): The root job finished: every node ends the computation. */
    public static final int TYPE = 9;
    public static final int EXIT_CODE_OFFSET = HEADER_LENGTH;
    public static final int BODY_LENGTH = 4;
    public static final int MIN_BODY_LENGTH = BODY_LENGTH;
    public static final int FRAME_LENGTH = HEADER_LENGTH + BODY_LENGTH;

    public int exitCode() {
        return buffer.getInt(EXIT_CODE_OFFSET, BYTE_ORDER);
    }

    /** Sets the code and the frame length. */
    public TerminateFlyweight exitCode(final int exitCode) {
        buffer.putInt(EXIT_CODE_OFFSET, exitCode, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH;
    }
}
