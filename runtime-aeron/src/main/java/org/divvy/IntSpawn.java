package org.divvy;

import java.util.function.Consumer;
import java.util.function.IntConsumer;

/** The handle of a spawned job returning {@code int}, without boxing. */
public interface IntSpawn extends Handle {
    /** The job's result; valid after the parent's {@code sync()}. Rethrows the job's exception. */
    int get();

    /** Registers an inlet run with the result, on the parent's thread during {@code sync()}. */
    IntSpawn onResult(IntConsumer callback);

    @Override
    IntSpawn onFailure(Consumer<? super Throwable> callback);
}
