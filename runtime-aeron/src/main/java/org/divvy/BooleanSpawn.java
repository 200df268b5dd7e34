package org.divvy;

import java.util.function.Consumer;

/** The handle of a spawned job returning {@code boolean}, without boxing. */
public interface BooleanSpawn extends Handle {
    /** A callback receiving a {@code boolean} without boxing. */
    @FunctionalInterface
    interface BooleanConsumer {
        void accept(boolean value);
    }

    /** The job's result; valid after the parent's {@code sync()}. Rethrows the job's exception. */
    boolean get();

    /** Registers an inlet run with the result, on the parent's thread during {@code sync()}. */
    BooleanSpawn onResult(BooleanConsumer callback);

    @Override
    BooleanSpawn onFailure(Consumer<? super Throwable> callback);
}
