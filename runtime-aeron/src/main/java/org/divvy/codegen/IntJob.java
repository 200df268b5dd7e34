package org.divvy.codegen;

import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.divvy.IntSpawn;

/** A job of a spawnable method returning {@code int}; generated code implements {@link #call()}. */
public abstract class IntJob extends Job implements IntSpawn {
    protected IntJob() {
    }

    /** The result; defined once the job has completed normally. */
    protected int result;

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract int call() throws Throwable;

    @Override
    protected final void compute() throws Throwable {
        result = call();
    }

    @Override
    public final int get() {
        checkReadable();
        return result;
    }

    @Override
    public final IntSpawn onResult(final IntConsumer callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final IntSpawn onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((IntConsumer)callback).accept(result);
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
        writer.writeInt(result);
    }

    @Override
    public final void readResult(final WireReader reader) {
        result = reader.readInt();
    }

    @Override
    public final Object boxedResult() {
        return Integer.valueOf(result);
    }
}
