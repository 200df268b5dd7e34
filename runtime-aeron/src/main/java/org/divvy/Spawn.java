package org.divvy;

import java.util.function.Consumer;

/** The handle of a spawned job returning a reference (or a primitive Divvy does not specialise). */
public interface Spawn<T> extends Handle {
    /** The job's result; valid after the parent's {@code sync()}. Rethrows the job's exception. */
    T get();

    /** Registers an inlet run with the result, on the parent's thread during {@code sync()}. */
    Spawn<T> onResult(Consumer<? super T> callback);

    @Override
    Spawn<T> onFailure(Consumer<? super Throwable> callback);
}
