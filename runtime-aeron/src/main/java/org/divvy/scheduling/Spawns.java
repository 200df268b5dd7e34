package org.divvy.scheduling;

import java.util.function.Consumer;

import org.divvy.DivvyException;
import org.divvy.JobAbortedException;
import org.divvy.SyncRequiredException;

/**
 * The entry points generated code and {@link org.divvy.Spawner} call: spawn, sync and abort for the
 * invocation running on the calling worker thread. The spawn path allocates nothing but the job,
 * takes no lock and makes one volatile read of node state (the parked-worker count).
 */
public final class Spawns {
    private Spawns() {
    }

    /** Records {@code job} as a child of the current invocation and queues it; returns it as its handle. */
    public static <J extends Job> J spawn(final J job) {
        final Worker worker = worker("spawn");
        final Job frame = worker.current;
        if (frame.cancelRequested) {
            throw AbortSignal.INSTANCE;
        }
        if (job.parent != null || job.status != Job.NEW) {
            throw new DivvyException("job `" + job.displayName() + "` spawned twice: a job record is spawned once");
        }
        job.parent = frame;
        job.childIndex = frame.spawned++;
        frame.linkChild(job);
        worker.deque.push(job);
        worker.jobsSpawned++;
        if (worker.scheduler.idleWorkers.get() != 0) {
            worker.scheduler.wakeIdleWorker();
        }
        return job;
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

    static void checkReadable(final Job job) {
        final Job parent = job.parent;
        if (parent != null && job.childIndex >= parent.syncedSpawns) {
            throw new SyncRequiredException("handle of `" + job.displayName() + "` read before sync(): call sync() first");
        }
        switch (job.status) {
            case Job.DONE -> {
            }
            case Job.FAILED -> throw SyncFailures.unchecked(job, job.exception);
            case Job.CANCELLED -> throw new JobAbortedException("job `" + job.displayName() + "` (stamp " + job.stamp() +
                ") was aborted; it has no value");
            default -> throw new DivvyException("handle of `" + job.displayName() + "` read while the job is still running");
        }
    }

    static boolean isDone(final Job job) {
        return job.status >= Job.DONE;
    }

    static void setFailureCallback(final Job job, final Consumer<? super Throwable> callback) {
        job.extras().failureCallback = callback;
    }

    static void setResultCallback(final Job job, final Object callback) {
        job.resultCallback = callback;
        final Job parent = job.parent;
        if (parent != null) {
            parent.inletsRegistered = true;
        }
    }
}
