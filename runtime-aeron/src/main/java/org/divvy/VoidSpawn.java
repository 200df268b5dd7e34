package org.divvy;

import java.util.function.Consumer;

/** The handle of a spawned job returning {@code void}. */
public interface VoidSpawn extends Handle {
    /** Returns once valid (after the parent's {@code sync()}); rethrows the job's exception. */
    void get();

    /** Registers an inlet run when the job completes normally, on the parent's thread during {@code sync()}. */
    VoidSpawn onResult(Runnable callback);

    @Override
    VoidSpawn onFailure(Consumer<? super Throwable> callback);
}
