package org.divvy.scheduling;

import java.util.function.Consumer;

import org.divvy.Handle;
import org.divvy.wire.JobType;
import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * One spawned invocation: the invocation record of the thesis (§1.2). Generated code extends the
 * result-specialised subclasses ({@link LongJob}, {@link IntJob}, {@link DoubleJob}, {@link BooleanJob},
 * {@link VoidJob}, {@link ObjectJob}) with the receiver and parameters of one spawnable method; the
 * scheduler owns everything else here.
 *
 * <p>A job is also the frame of its own invocation while it runs: its children, spawn counter and
 * sync state live in it, so a spawn allocates exactly one object.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable): the protected abstract hooks below, {@link #type()},
 * {@link #encodeArguments(WireWriter)} and the subclasses' {@code call()}, {@code writeValue} and
 * {@code readValue}. Everything else is the scheduler's and may change.
 */
public abstract class Job implements Handle {

    /** The type of this job, which decodes its arguments on another node. */
    public abstract JobType type();

    /**
     * Writes the receiver and the arguments, in the order {@link JobType#decode(WireReader)} reads them.
     * Called on the node the job is stolen from.
     */
    public abstract void encodeArguments(WireWriter writer);

    /**
     * The guard of the spawnable method, or {@code true} when it has none. Called before a stolen job
     * runs (guard consistency).
     */
    protected boolean guard() {
        return true;
    }

    /** Runs the spawnable method and stores its result in this job. */
    protected abstract void compute() throws Throwable;

    /** Writes the result (the job has completed normally). */
    protected abstract void writeResult(WireWriter writer);

    /** Reads a result written by {@link #writeResult(WireWriter)} into this job. */
    protected abstract void readResult(WireReader reader);

    /** Runs the result inlet registered on this handle, if any; on the parent's thread. */
    protected abstract void runResultCallback();

    // ---------------------------------------------------------------------------------------------
    // Scheduler-owned state and operations. The scheduler implementation fills these in.
    // ---------------------------------------------------------------------------------------------

    /** The inlet registered for the result, typed by the subclass; null when none. */
    protected Object resultCallback;

    /** The inlet registered for a failure; null when none. */
    Consumer<? super Throwable> failureCallback;

    /**
     * Throws unless the value may be read: {@link org.divvy.SyncRequiredException} before the parent's
     * sync, the job's own exception if it failed, {@link org.divvy.JobAbortedException} if aborted.
     */
    protected final void checkReadable() {
        Spawns.checkReadable(this);
    }

    @Override
    public boolean isDone() {
        return Spawns.isDone(this);
    }

    /** Stores a failure inlet; subclasses narrow the return type. */
    protected final void setFailureCallback(final Consumer<? super Throwable> callback) {
        Spawns.setFailureCallback(this, callback);
    }

    /** Stores a result inlet; subclasses narrow the return type. */
    protected final void setResultCallback(final Object callback) {
        Spawns.setResultCallback(this, callback);
    }
}
