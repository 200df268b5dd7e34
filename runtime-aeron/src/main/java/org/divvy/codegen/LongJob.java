package org.divvy.codegen;

import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.divvy.LongSpawn;

/** A job of a spawnable method returning {@code long}; generated code implements {@link #call()}. */
public abstract class LongJob extends Job implements LongSpawn {
    protected LongJob() {
    }

    /** The result; defined once the job has completed normally. */
    protected long result;

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract long call() throws Throwable;

    @Override
    protected final void compute() throws Throwable {
        result = call();
    }

    @Override
    public final long get() {
        checkReadable();
        return result;
    }

    @Override
    public final LongSpawn onResult(final LongConsumer callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final LongSpawn onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((LongConsumer)callback).accept(result);
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
        writer.writeLong(result);
    }

    @Override
    public final void readResult(final WireReader reader) {
        result = reader.readLong();
    }

    @Override
    public final Object boxedResult() {
        return Long.valueOf(result);
    }
}
