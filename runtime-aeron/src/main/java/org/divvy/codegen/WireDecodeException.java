package org.divvy.codegen;

import org.divvy.DivvyException;

/** Bytes that do not decode: truncated, corrupted, or claiming more than the frame holds. */
public class WireDecodeException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public WireDecodeException(final String message) {
        super(message);
    }
}
