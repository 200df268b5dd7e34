package org.divvy;

/** The job behind a handle was cancelled by {@code abort()} (or because a sibling failed). */
public class JobAbortedException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public JobAbortedException(final String message) {
        super(message);
    }
}
