package org.divvy;

/** A handle was read before the parent's {@code sync()} returned; its value is not defined yet. */
public class SyncRequiredException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public SyncRequiredException(final String message) {
        super(message);
    }
}
