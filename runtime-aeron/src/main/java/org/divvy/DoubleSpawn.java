package org.divvy;

import java.util.function.Consumer;
import java.util.function.DoubleConsumer;

/** The handle of a spawned job returning {@code double}, without boxing. */
public interface DoubleSpawn extends Handle {
    /** The job's result; valid after the parent's {@code sync()}. Rethrows the job's exception. */
    double get();

    /** Registers an inlet run with the result, on the parent's thread during {@code sync()}. */
    DoubleSpawn onResult(DoubleConsumer callback);

    @Override
    DoubleSpawn onFailure(Consumer<? super Throwable> callback);
}
