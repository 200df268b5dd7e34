package org.divvy.transport;

/**
 * Why the {@link ReceiveGuard} refused an Aeron frame, as the node's error handler is told: one preallocated
 * instance per reason, reported for each frame refused (the error log counts them without allocating and
 * logs a line at 1, 10, 100, ...). Without a stack trace: the reason is the whole story, and a trace of the
 * driver's receive loop would only say where datagrams are read.
 */
public final class RefusedFrameException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefusedFrameException(final String message) {
        super(message, null, false, false);
    }
}
