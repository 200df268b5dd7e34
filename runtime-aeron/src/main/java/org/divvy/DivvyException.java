package org.divvy;

/** The root of Divvy's exceptions. All are unchecked. */
public class DivvyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DivvyException(final String message) {
        super(message);
    }

    public DivvyException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
