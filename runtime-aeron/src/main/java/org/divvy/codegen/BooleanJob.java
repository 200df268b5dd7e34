package org.divvy.codegen;

import java.util.function.Consumer;

import org.divvy.BooleanSpawn;

/** A job of a spawnable method returning {@code boolean}; generated code implements {@link #call()}. */
public abstract class BooleanJob extends Job implements BooleanSpawn {
    protected BooleanJob() {
    }

    /** The result; defined once the job has completed normally. */
    protected boolean result;

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract boolean call() throws Throwable;

    @Override
    protected final void compute() throws Throwable {
        result = call();
    }

    @Override
    public final boolean get() {
        checkReadable();
        return result;
    }

    @Override
    public final BooleanSpawn onResult(final BooleanSpawn.BooleanConsumer callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final BooleanSpawn onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((BooleanSpawn.BooleanConsumer)callback).accept(result);
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
        writer.writeBoolean(result);
    }

    @Override
    public final void readResult(final WireReader reader) {
        result = reader.readBoolean();
    }

    @Override
    public final Object boxedResult() {
        return Boolean.valueOf(result);
    }
}
