package org.divvy.codegen;

import org.divvy.scheduling.CurrentFrame;

/**
 * The entry points generated code calls: spawn, sync and abort for the invocation running on the
 * calling worker thread. Each delegates to the scheduler.
 */
public final class Spawns {
    private Spawns() {
    }

    /** Records {@code job} as a child of the current invocation and queues it; returns it as its handle. */
    public static <J extends Job> J spawn(final J job) {
        CurrentFrame.spawn(job);
        return job;
    }

    /** See {@link org.divvy.Spawner#sync()}. */
    public static void sync() {
        CurrentFrame.sync();
    }

    /** See {@link org.divvy.Spawner#abort()}. */
    public static void abort() {
        CurrentFrame.abort();
    }

    /**
     * Whether the invocation running on this thread has been asked to stop (an ancestor aborted it or a
     * sibling failed). Long loops that neither spawn nor sync may poll it and return early.
     */
    public static boolean isCancelRequested() {
        return CurrentFrame.isCancelRequested();
    }
}
