package org.divvy.codegen;

import org.divvy.DivvyException;

/**
 * An encode passed the limit its {@link WireWriter} was given: the value is larger than can be sent. Thrown
 * on the node that encodes, which keeps the job (it runs there) or reports the result as too large; carries
 * no stack trace, as it is a size verdict, not a bug.
 */
public final class WireLimitException extends DivvyException {
    private static final long serialVersionUID = 1L;

    private final int limitBytes;

    public WireLimitException(final int limitBytes) {
        super("the encoding is larger than " + limitBytes + " bytes (maxMessageBytes)");
        this.limitBytes = limitBytes;
    }

    /** The limit it passed, in bytes. */
    public int limitBytes() {
        return limitBytes;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
