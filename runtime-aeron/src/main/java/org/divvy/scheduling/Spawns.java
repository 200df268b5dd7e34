package org.divvy.scheduling;

import java.util.function.Consumer;

import org.divvy.DivvyException;

/**
 * The entry points generated code and {@link org.divvy.Spawner} call: spawn, sync and abort for the
 * invocation running on the calling worker thread. Placeholder bodies; the scheduler replaces them.
 */
public final class Spawns {
    private Spawns() {
    }

    /** Records {@code job} as a child of the current invocation and queues it; returns it as its handle. */
    public static <J extends Job> J spawn(final J job) {
        throw new DivvyException("not implemented yet");
    }

    /** See {@link org.divvy.Spawner#sync()}. */
    public static void sync() {
        throw new DivvyException("not implemented yet");
    }

    /** See {@link org.divvy.Spawner#abort()}. */
    public static void abort() {
        throw new DivvyException("not implemented yet");
    }

    static void checkReadable(final Job job) {
        throw new DivvyException("not implemented yet");
    }

    static boolean isDone(final Job job) {
        throw new DivvyException("not implemented yet");
    }

    static void setFailureCallback(final Job job, final Consumer<? super Throwable> callback) {
        job.failureCallback = callback;
    }

    static void setResultCallback(final Job job, final Object callback) {
        job.resultCallback = callback;
    }
}
