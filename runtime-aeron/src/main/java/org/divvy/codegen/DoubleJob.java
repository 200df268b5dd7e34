package org.divvy.codegen;

import java.util.function.Consumer;
import java.util.function.DoubleConsumer;
import org.divvy.DoubleSpawn;

/** A job of a spawnable method returning {@code double}; generated code implements {@link #call()}. */
public abstract class DoubleJob extends Job implements DoubleSpawn {
    protected DoubleJob() {
    }

    /** The result; defined once the job has completed normally. */
    protected double result;

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract double call() throws Throwable;

    @Override
    protected final void compute() throws Throwable {
        result = call();
    }

    @Override
    public final double get() {
        checkReadable();
        return result;
    }

    @Override
    public final DoubleSpawn onResult(final DoubleConsumer callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final DoubleSpawn onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((DoubleConsumer)callback).accept(result);
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
        writer.writeDouble(result);
    }

    @Override
    public final void readResult(final WireReader reader) {
        result = reader.readDouble();
    }

    @Override
    public final Object boxedResult() {
        return Double.valueOf(result);
    }
}
