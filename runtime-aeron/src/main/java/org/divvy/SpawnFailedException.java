package org.divvy;

/**
 * Carries a child's checked exception out of {@code sync()} or {@code get()}, which declare none.
 * Unchecked exceptions and errors of a child are rethrown as they are.
 */
public class SpawnFailedException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public SpawnFailedException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
