package org.divvy.codegen;

import org.divvy.Handle;
import org.divvy.scheduling.Task;

/**
 * One spawned invocation: generated code extends the result-specialised subclasses ({@link LongJob},
 * {@link IntJob}, {@link DoubleJob}, {@link BooleanJob}, {@link VoidJob}, {@link ObjectJob}) with the
 * receiver and parameters of one spawnable method. A job is the handle its spawn returns.
 *
 * <p>A job extends the scheduler's invocation record (an internal superclass, which holds the job's
 * scheduling state and changes it only through its own methods) with what travels: its type, which
 * decodes it on another node, and the codecs of its arguments and result. The network half calls them:
 * a victim encodes the arguments of a job it gives away, the thief writes the result of the job it ran,
 * and the victim reads it back into the job.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable): {@link #type()}, {@link #encodeArguments(WireWriter)}, the
 * subclasses' {@code call()} (and {@code writeValue}/{@code readValue} of {@link ObjectJob}), and
 * optional {@code guard()} and {@link #sharedObjects()} overrides. Everything else is the runtime's and may change.
 */
@SuppressWarnings("exports") // Task is the scheduler's and stays internal: generated code never names it
public abstract class Job extends Task implements Handle {

    protected Job() {
    }

    /** The type of this job, which decodes its arguments on another node. */
    public abstract JobType type();

    /**
     * Writes the receiver and the arguments, in the order {@link JobType#decode(WireReader)} reads them.
     * Called on the node the job is stolen from.
     */
    public abstract void encodeArguments(WireWriter writer);

    /**
     * Writes the result of a job that completed normally; on the thief, which returns it to the owner.
     * Implemented by the result-specialised subclasses.
     */
    public abstract void writeResult(WireWriter writer);

    /**
     * Reads a result written by {@link #writeResult(WireWriter)} into this job, on the owner, before the
     * job completes. Implemented by the result-specialised subclasses.
     */
    public abstract void readResult(WireReader reader);

    /**
     * The result of a job that completed normally, boxed ({@code null} for a void job): a run's root
     * hands it to its caller. Implemented by the result-specialised subclasses.
     */
    public abstract Object boxedResult();

    /**
     * Runs the body of this job inline on the calling worker, whose current frame is another task, so the
     * body's spawns and syncs are that task's: in checking mode a copy decoded from another job's encoding
     * (its result is then written with {@link #writeResult} and read into the original); for a
     * {@link org.divvy.Root}, the run's root invocation, so the root's children get the same stamps on
     * every node that runs it.
     */
    public final void computeAsCopy() throws Throwable {
        compute();
    }

    private static final Object[] NO_SHARED_OBJECTS = new Object[0];

    /**
     * The shared objects this job's parameters hold (replicas of this node once decoded here), in parameter
     * order; generated for spawnables with shared-object parameters. Called before a job from another node
     * runs, to wait for replicas being fetched and to fetch fresh ones when its guard fails.
     */
    public Object[] sharedObjects() {
        return NO_SHARED_OBJECTS;
    }

    /** Whether the spawnable's guard holds for this job ({@code true} when it has none): the shared-data module asks. */
    public final boolean guardHolds() {
        return guard();
    }

    /** The name of the job type. */
    @Override
    protected final String spawnableName() {
        return type().name();
    }
}
