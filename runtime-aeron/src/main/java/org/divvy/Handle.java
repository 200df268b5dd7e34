package org.divvy;

import java.util.function.Consumer;

/**
 * The handle of one spawned job, returned by a generated spawn stub.
 *
 * <p>The value of a handle is defined only after the parent's {@code sync()} returns; reading it
 * earlier throws {@link SyncRequiredException}. A child's exception is rethrown by the parent's
 * {@code sync()} unless a failure callback is registered on its handle, in which case the callback
 * receives it instead. Callbacks (inlets) run on the parent's node and thread, while the parent waits
 * in {@code sync()}; they are never serialized, and they may call {@code abort()}.
 */
public interface Handle {
    /** Whether the job has finished: with a value, an exception or by abort. */
    boolean isDone();

    /**
     * Registers an inlet for this job's exception. The exception is then not rethrown by {@code sync()}.
     * Register before {@code sync()}; at most one failure callback per handle.
     */
    Handle onFailure(Consumer<? super Throwable> callback);
}
