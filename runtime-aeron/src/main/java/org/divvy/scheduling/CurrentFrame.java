package org.divvy.scheduling;

import org.divvy.DivvyException;

/**
 * Spawn, sync and abort on the frame of the invocation running on the calling worker thread: the
 * scheduler's entry points for {@code org.divvy.codegen.Spawns} (what generated code calls) and
 * {@link org.divvy.Spawner}. The spawn path allocates nothing but the job, takes no lock and makes one
 * volatile read of node state (the parked-worker count).
 */
public final class CurrentFrame {
    private CurrentFrame() {
    }

    /** Records {@code job} (unspawned) as a child of the current invocation and queues it. */
    public static void spawn(final Task job) {
        final Worker worker = worker("spawn");
        final Task frame = worker.current;
        if (frame.cancelRequested) {
            throw AbortSignal.INSTANCE;
        }
        if (!job.isUnspawned()) {
            throw new DivvyException("job `" + job.displayName() + "` spawned twice: a job record is spawned once");
        }
        frame.linkChild(job);
        worker.deque.push(job);
        worker.jobsSpawned++;
        if (worker.scheduler.idleWorkers.get() != 0) {
            worker.scheduler.wakeIdleWorker();
        }
    }

    /** See {@link org.divvy.Spawner#sync()}. */
    public static void sync() {
        final Worker worker = worker("sync");
        worker.sync(worker.current);
    }

    /** See {@link org.divvy.Spawner#abort()}. */
    public static void abort() {
        final Worker worker = worker("abort");
        Aborts.abortChildren(worker.current);
    }

    /**
     * Whether the invocation running on this thread has been asked to stop (an ancestor aborted it or a
     * sibling failed). Long loops that neither spawn nor sync may poll it and return early.
     */
    public static boolean isCancelRequested() {
        return worker("isCancelRequested").current.cancelRequested;
    }

    private static Worker worker(final String operation) {
        if (Thread.currentThread() instanceof Worker w && w.current != null) {
            return w;
        }
        throw new DivvyException(operation + "() called on thread `" + Thread.currentThread().getName() +
            "`, which is not running a Divvy job: start the computation through DivvyNode.run(...) (or Divvy.run(...))");
    }
}
