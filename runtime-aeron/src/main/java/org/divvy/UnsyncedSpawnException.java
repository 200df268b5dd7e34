package org.divvy;

/**
 * An invocation returned with children it spawned after its last {@code sync()} and never synced, nor aborted, nor gave
 * an inlet (an inlet reads its child's value in the implicit sync). Their values could never be read, so this is almost
 * always a forgotten {@code sync()}; a spawned job may not work through side effects, since it may run on a copy of its
 * receiver on another node. The invocation fails with this exception (its unsynced children are aborted), which reaches
 * its parent's {@code sync()}, or the caller of {@link DivvyNode#run}, on one node as on many.
 */
public class UnsyncedSpawnException extends DivvyException {
    private static final long serialVersionUID = 1L;

    public UnsyncedSpawnException(final String message) {
        super(message);
    }
}
