package org.divvy.scheduling;

import org.divvy.Spawn;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.ObjectJob;
import org.divvy.codegen.Spawns;
import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;

/** A hand-written job running a test's lambda, shaped like a generated {@link ObjectJob}. */
public final class TaskJob<T> extends ObjectJob<T> {
    /** The body of a spawnable method. */
    @FunctionalInterface
    public interface Body<T> {
        T call() throws Throwable;
    }

    private final String name;
    private final Body<T> body;

    private TaskJob(final String name, final Body<T> body) {
        this.name = name;
        this.body = body;
    }

    /** A job of the spawnable method {@code name} running {@code body}, not spawned: as one that arrives from another node. */
    public static <T> TaskJob<T> of(final String name, final Body<T> body) {
        return new TaskJob<>(name, body);
    }

    /** Spawns {@code body} as a job of the spawnable method {@code name}. */
    public static <T> Spawn<T> spawn(final String name, final Body<T> body) {
        return Spawns.spawn(new TaskJob<>(name, body));
    }

    @Override
    protected T call() throws Throwable {
        return body.call();
    }

    @Override
    protected void writeValue(final WireWriter writer, final T value) {
        throw new UnsupportedOperationException("test job");
    }

    @Override
    protected T readValue(final WireReader reader) {
        throw new UnsupportedOperationException("test job");
    }

    @Override
    public JobType type() {
        return new JobType() {
            @Override
            public String name() {
                return "test.Tasks#" + name;
            }

            @Override
            public Job decode(final WireReader reader) {
                throw new UnsupportedOperationException("test job");
            }
        };
    }

    @Override
    public void encodeArguments(final WireWriter writer) {
        throw new UnsupportedOperationException("test job");
    }
}
