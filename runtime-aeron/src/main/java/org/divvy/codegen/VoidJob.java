package org.divvy.codegen;

import java.util.function.Consumer;

import org.divvy.VoidSpawn;

/** A job of a spawnable method returning {@code void}; generated code implements {@link #call()}. */
public abstract class VoidJob extends Job implements VoidSpawn {
    protected VoidJob() {
    }

    /** Runs the spawnable method on the job's receiver and arguments. */
    protected abstract void call() throws Throwable;

    @Override
    protected final void compute() throws Throwable {
        call();
    }

    @Override
    public final void get() {
        checkReadable();
    }

    @Override
    public final VoidSpawn onResult(final Runnable callback) {
        setResultCallback(callback);
        return this;
    }

    @Override
    public final VoidSpawn onFailure(final Consumer<? super Throwable> callback) {
        setFailureCallback(callback);
        return this;
    }

    @Override
    protected final void runResultCallback() {
        final Object callback = resultCallback();
        if (callback != null) {
            ((Runnable)callback).run();
        }
    }

    @Override
    public final void writeResult(final WireWriter writer) {
    }

    @Override
    public final void readResult(final WireReader reader) {
    }

    @Override
    public final Object boxedResult() {
        return null;
    }
}
