package org.divvy.codegen;

import java.util.function.Consumer;

import org.divvy.Spawn;

/**
 * A job of a spawnable method returning a reference type {@code T} (boxes included); generated code
 * implements {@link #call()} and the result codec {@link #writeValue}/{@link #readValue}.
 */
public abstract class ObjectJob<T> extends Job implements Spawn<T> {
    protected ObjectJob() {
    }

    /** The result; defined once the job has completed normally. */
    protected T result;

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract T call() throws Throwable;

    /** Writes a (nullable) result value. */
    protected abstract void writeValue(WireWriter writer, T value);

    /** Reads a (nullable) result value. */
    protected abstract T readValue(WireReader reader);

    @Override
    protected final void compute() throws Throwable {
        result = call();
    }

    @Override
    public final T get() {
        checkReadable();
        return result;
    }

    @Override
    public final Spawn<T> onResult(final Consumer<? super T> callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final Spawn<T> onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((Consumer<? super T>)callback).accept(result);
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
        writeValue(writer, result);
    }

    @Override
    public final void readResult(final WireReader reader) {
        result = readValue(reader);
    }

    @Override
    public final Object boxedResult() {
        return result;
    }
}
