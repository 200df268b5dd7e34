package org.divvy.scheduling;

import org.divvy.DivvyException;

/**
 * Spawn, sync and abort on the frame of the invocation running on the calling worker thread: the
 * scheduler's entry points for {@code org.divvy.codegen.Spawns} (what generated code calls) and
 * {@link org.divvy.Spawner}. The spawn path allocates nothing but the job, takes no lock and reads node
 * state twice (the parked-worker count, and the shared-objects hook, which with shared-data installed reads
 * its count of writes waiting: a plain load each on x86), both through fields of the worker itself, so neither
 * is a chain of loads through the scheduler. A spawn publishes its job on the worker's deque
 * only while thieves could want it; otherwise the job stays {@link Task#UNPUBLISHED} in its parent's
 * children list, and the parent's sync runs it, unless the worker's deque runs short first: then the worker
 * publishes the held-back jobs of its oldest frames (see {@link WorkStealingDeque}'s overview).
 */
public final class CurrentFrame {
    private CurrentFrame() {
    }

    /**
     * The job a {@link #capture} on this thread recorded; set only while one runs. A thread-local read only
     * off the spawn path's fast case: spawns on worker threads never touch it.
     */
    private static final ThreadLocal<Task[]> CAPTURED = new ThreadLocal<>();

    /** Records {@code job} (unspawned) as a child of the current invocation and queues it. */
    public static void spawn(final Task job) {
        if (!(Thread.currentThread() instanceof Worker w) || w.current == null) {
            spawnOffWorker(job);
            return;
        }
        final Worker worker = w;
        final Task frame = worker.current;
        if (frame.cancelRequested) {
            throw AbortSignal.INSTANCE;
        }
        if (!job.isUnspawned()) {
            throw new DivvyException("job `" + job.displayName() + "` spawned twice: a job record is spawned once");
        }
        frame.linkChild(job);
        worker.jobsSpawned++;
        worker.safePoint(); // a spawn is a safe point for shared objects
        if (worker.parkedWorkers.get() != 0) {
            if (worker.mayHoldChildren && !worker.deque.hasSurplus(Worker.STEALABLE_SURPLUS)) {
                worker.publishHeldChildren(frame); // the woken worker takes the oldest, largest jobs
            }
            worker.deque.push(job);
            worker.scheduler.wakeIdleWorker();
        } else if (worker.deque.hasSurplus(Worker.STEALABLE_SURPLUS)) {
            job.holdUnpublished(); // thieves have older, larger jobs to take: the frame's sync runs it
            worker.mayHoldChildren = true;
        } else {
            if (worker.mayHoldChildren) {
                worker.publishHeldChildren(frame); // thieves took the surplus: older frames' held-back jobs first
            }
            worker.deque.push(job);
        }
    }

    /** A spawn outside a job: recorded by a {@link #capture} running on this thread, else a misuse. */
    private static void spawnOffWorker(final Task job) {
        final Task[] slot = CAPTURED.get();
        if (slot == null) {
            worker("spawn"); // throws, saying where spawns may be made
        }
        if (slot[0] != null) {
            throw new DivvyException("a root spawns one job: `" + slot[0].displayName() + "` was spawned already, then `" +
                job.displayName() + "`; make the root a single spawn call (e.g. () -> new Fib().spawnFib(40))");
        }
        if (!job.isUnspawned()) {
            throw new DivvyException("job `" + job.displayName() + "` spawned twice: a job record is spawned once");
        }
        slot[0] = job;
    }

    /**
     * Runs {@code call} on this (application) thread and returns the one job it spawned, which is not queued
     * anywhere: how a {@link org.divvy.Root} turns {@code () -> fib.spawnFib(40)} into an invocation that can
     * be encoded and run on any node. Throws {@link DivvyException} on a worker thread running a job, or if
     * {@code call} spawned nothing.
     */
    public static Task capture(final Runnable call) {
        if (Thread.currentThread() instanceof Worker w && w.current != null) {
            throw new DivvyException("a root is made outside jobs, on the thread that starts the run; inside a job, spawn");
        }
        final Task[] slot = new Task[1];
        final Task[] outer = CAPTURED.get();
        CAPTURED.set(slot);
        try {
            call.run();
        } finally {
            if (outer == null) {
                CAPTURED.remove();
            } else {
                CAPTURED.set(outer);
            }
        }
        if (slot[0] == null) {
            throw new DivvyException("the root spawned no job: make it a single spawn call (e.g. () -> new Fib().spawnFib(40))");
        }
        return slot[0];
    }

    /**
     * Applies the writes to shared objects that arrived from other nodes (an explicit safe point, for long
     * loops that neither spawn nor sync); does nothing off a worker or on a node without shared objects.
     */
    public static void pollSharedObjects() {
        if (Thread.currentThread() instanceof Worker w) {
            w.safePoint();
        }
    }

    /** See {@link org.divvy.Spawner#skipSpawn()}. */
    public static void skipSpawn() {
        worker("skipSpawn").current.skipChild();
    }

    /** See {@link org.divvy.Spawner#sync()}. */
    public static void sync() {
        final Worker worker = worker("sync");
        worker.sync(worker.current);
    }

    /** See {@link org.divvy.Spawner#abort()}. */
    public static void abort() {
        final Worker worker = worker("abort");
        worker.current.markAborted();
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
