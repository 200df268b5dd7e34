package org.divvy;

import java.util.function.Consumer;
import java.util.function.LongConsumer;

/** The handle of a spawned job returning {@code long}, without boxing. */
public interface LongSpawn extends Handle {
    /** The job's result; valid after the parent's {@code sync()}. Rethrows the job's exception. */
    long get();

    /** Registers an inlet run with the result, on the parent's thread during {@code sync()}. */
    LongSpawn onResult(LongConsumer callback);

    @Override
    LongSpawn onFailure(Consumer<? super Throwable> callback);
}
