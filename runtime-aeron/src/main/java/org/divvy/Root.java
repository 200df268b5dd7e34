package org.divvy;

import java.util.Objects;

import org.divvy.codegen.Job;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireLimitException;
import org.divvy.codegen.WireWriter;
import org.divvy.scheduling.CurrentFrame;

/**
 * The root of a run that survives its master: one spawnable invocation, whose receiver and arguments travel
 * with the generated codecs, so any node can run it again. Made from a single spawn call, on the thread that
 * starts the run:
 *
 * <pre>{@code
 * Root<Long> root = Root.of(() -> new Fib(20).spawnFib(40));
 * RunResult<Long> r = node.run(root);          // this node is the master
 * DelegatedRun<Long> d = node.submit(root);    // the registry chooses a master, and another if it dies
 * }</pre>
 *
 * <p>The call is run once, here, only to record the job it spawns (nothing is queued); each node that
 * runs the root runs that job's body as the run's root invocation, so its children get the same stamps on
 * every node, and a master that takes over reuses the results the others saved (thesis §3.3). A lambda
 * {@link RootTask} cannot be shipped: {@link DivvyNode#run(RootTask)} stays for runs that need no takeover.
 *
 * <p>Immutable once made; a root may be run several times, one run at a time.
 */
public final class Root<T> {
    private final Job job;

    private Root(final Job job) {
        this.job = job;
    }

    /** A root whose spawnable returns {@code long}: {@code Root.of(() -> fib.spawnFib(40))}. */
    public static Root<Long> of(final LongCall call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    /** A root whose spawnable returns {@code int}. */
    public static Root<Integer> of(final IntCall call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    /** A root whose spawnable returns {@code double}. */
    public static Root<Double> of(final DoubleCall call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    /** A root whose spawnable returns {@code boolean}. */
    public static Root<Boolean> of(final BooleanCall call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    /** A root whose spawnable returns nothing; its value is {@code null}. */
    public static Root<Void> of(final VoidCall call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    /** A root whose spawnable returns an object: {@code Root.of(() -> uts.spawnSearch(seed, 0))}. */
    public static <T> Root<T> of(final ObjectCall<T> call) {
        Objects.requireNonNull(call, "call");
        return capture(() -> call.spawn());
    }

    private static <T> Root<T> capture(final Runnable call) {
        return new Root<>((Job)CurrentFrame.capture(call));
    }

    /** The name of the root's spawnable ({@code org.example.Fib#fib}). */
    public String spawnableName() {
        return job.type().name();
    }

    /** The recorded invocation; the runtime's. */
    Job job() {
        return job;
    }

    /**
     * Encodes the root as it travels into {@code writer}: its receiver and arguments by the generated codec; its
     * shared objects attach to {@code sharedObjects} (this node's replica table, or null), so the master can fetch
     * them from here. The node calls it twice, to measure and to write straight into the frame. Throws
     * {@link DivvyException} if they cannot be encoded, {@link WireLimitException} past the writer's limit.
     */
    void encodeArguments(final WireWriter writer, final SharedObjectContext sharedObjects) {
        try {
            job.encodeArguments(writer.sharedObjects(sharedObjects));
        } catch (final WireLimitException e) {
            throw e;
        } catch (final RuntimeException e) {
            throw new DivvyException("the root `" + spawnableName() + "` cannot be encoded for other nodes: " + e.getMessage(), e);
        }
    }

    /** The spawn of a root whose spawnable returns {@code long}. */
    @FunctionalInterface
    public interface LongCall {
        LongSpawn spawn();
    }

    /** The spawn of a root whose spawnable returns {@code int}. */
    @FunctionalInterface
    public interface IntCall {
        IntSpawn spawn();
    }

    /** The spawn of a root whose spawnable returns {@code double}. */
    @FunctionalInterface
    public interface DoubleCall {
        DoubleSpawn spawn();
    }

    /** The spawn of a root whose spawnable returns {@code boolean}. */
    @FunctionalInterface
    public interface BooleanCall {
        BooleanSpawn spawn();
    }

    /** The spawn of a root whose spawnable returns nothing. */
    @FunctionalInterface
    public interface VoidCall {
        VoidSpawn spawn();
    }

    /** The spawn of a root whose spawnable returns an object. */
    @FunctionalInterface
    public interface ObjectCall<T> {
        Spawn<T> spawn();
    }
}
