package org.divvy.scheduling;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.RootTask;
import org.divvy.RunResult;
import org.divvy.RunStatistics;
import org.divvy.SpawnFailedException;

/**
 * The scheduler of one node: its workers, their deques, the count of parked workers and the runs
 * submitted to it. Runs are serialised: one root at a time, each waited for by its caller.
 *
 * <p>Threads: {@link #run} is called by application threads (never by a worker of this node); every
 * other piece of state belongs to the workers, see {@link Worker}.
 */
public final class Scheduler implements AutoCloseable {
    /** How long {@link #close()} waits for each worker to stop. */
    static final long CLOSE_JOIN_TIMEOUT_MS = 10_000;
    /** How often a run whose node is closing checks whether any worker is left to end it. */
    private static final long CLOSING_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    final Worker[] workers;
    /** Workers currently parked and counted idle; a spawn that sees it non-zero wakes one. */
    final AtomicInteger idleWorkers = new AtomicInteger();
    /**
     * Workers that found no work since they last ran a job (spinning, yielding or parked): when it
     * equals the worker count the node is out of work and may steal from peers.
     */
    final AtomicInteger idlingWorkers = new AtomicInteger();

    private final ConcurrentLinkedQueue<Task> submissions = new ConcurrentLinkedQueue<>();
    /**
     * The inbox: jobs stolen from peers (and the rare job a failed remote reply gave back). Only a
     * deque's owner may push to it, so the network agent queues here; workers take from it after their
     * local steals fail, also while they wait in sync.
     */
    private final ConcurrentLinkedQueue<Task> remoteJobs = new ConcurrentLinkedQueue<>();
    private final Object runLock = new Object();
    /** Each worker's stack, named when a run fails with a stack overflow. */
    private final long workerStackSizeBytes;
    private volatile boolean closing;
    /** The root of the run under way, for {@link #close()} to cancel; null between runs. */
    private volatile RootInvocation<?> current;
    private boolean started;

    /** Runs spawned jobs' bodies in checking mode; null: they run as they are. */
    final ComputeHook computeHook;

    /** Fault tolerance's view of restarted and orphaned jobs; null on a node without a network half. */
    volatile RecoveryHook recoveryHook;

    /**
     * Shared objects' safe points and guards; null on a node without the shared-data module. Workers read their
     * own copy ({@link Worker#sharingHook}); this one serves threads outside the workers.
     */
    volatile SharingHook sharingHook;

    /** Creates the workers (not started) from {@code config}; {@code nodeName} prefixes thread names. */
    public Scheduler(final NodeConfig config, final String nodeName) {
        this(config, nodeName, null);
    }

    /** As {@link #Scheduler(NodeConfig, String)}, with spawned jobs run through {@code computeHook} (null for none). */
    public Scheduler(final NodeConfig config, final String nodeName, final ComputeHook computeHook) {
        Objects.requireNonNull(config, "config");
        this.computeHook = computeHook;
        // Initialise the abort signal now: its first use may come deep in a worker's stack, where a
        // stack overflow in its initialiser would break the class for good.
        Objects.requireNonNull(AbortSignal.INSTANCE);
        workers = new Worker[config.workers()];
        workerStackSizeBytes = config.workerStackSizeBytes();
        for (int i = 0; i < workers.length; i++) {
            final IdleBackoff backoff = new IdleBackoff(config.idleSpinCount(), config.idleYieldCount(),
                config.idleParkMinNs(), config.idleParkMaxNs(), config.idleDeepParkNs());
            workers[i] = new Worker(this, i, nodeName + "-worker-" + i, config.workerStackSizeBytes(), backoff);
        }
    }

    /** Installs fault tolerance's hook (the network half does, before any run). */
    public void recoveryHook(final RecoveryHook hook) {
        recoveryHook = hook;
    }

    /**
     * Installs the shared-data module's hook (the network half does, before any run, but after the workers
     * started): here, for threads outside the workers, and in every worker's own copy, which its safe points read
     * ({@link Worker#sharingHook}); each worker sees it at its next safe point.
     */
    public void sharingHook(final SharingHook hook) {
        sharingHook = hook;
        for (final Worker w : workers) {
            w.sharingHook = hook;
        }
    }

    /**
     * Installs (or, with null, removes) result copies' hook: in every worker's own copy, which it reads as each job
     * starts ({@link Worker#resultCopyHook}); a job that started before sees the hook it started with.
     */
    public void resultCopyHook(final ResultCopyHook hook) {
        for (final Worker w : workers) {
            w.resultCopyHook = hook;
        }
    }

    /**
     * A job that came from another node and runs outside the workers' loop (a root given to this node's master
     * thread): waits for the replicas of its shared objects and checks its guard, as a worker does first.
     */
    public void awaitSharedObjects(final Task job) {
        final SharingHook hook = sharingHook;
        if (hook != null) {
            hook.beforeRemoteJob(job);
        }
    }

    /** The installed recovery hook, or null. */
    public RecoveryHook recoveryHook() {
        return recoveryHook;
    }

    /** Starts the worker threads. */
    public synchronized void start() {
        if (started) {
            throw new DivvyException("scheduler already started");
        }
        started = true;
        for (final Worker w : workers) {
            w.start();
        }
    }

    /** Number of worker threads. */
    public int workerCount() {
        return workers.length;
    }

    /**
     * Runs {@code task} as the root job on a worker and blocks (uninterruptibly) until it completes.
     * Rethrows the root's exception: unchecked ones as they are, checked ones wrapped in
     * {@link SpawnFailedException}.
     */
    public <T> RunResult<T> run(final RootTask<T> task) {
        return run(task, false);
    }

    /**
     * As {@link #run(RootTask)}; a {@code restarted} root is a master's taking over from one that died: every
     * job it spawns is restarted (inherited at spawn), so each looks its stamp up in the orphan table first.
     */
    public <T> RunResult<T> run(final RootTask<T> task, final boolean restarted) {
        Objects.requireNonNull(task, "task");
        if (Thread.currentThread() instanceof Worker w && w.scheduler == this) {
            throw new DivvyException("run() called from inside a job of the same node: spawn the work instead");
        }
        synchronized (runLock) {
            if (closing || !started) {
                throw new DivvyException(closing ? "the node is closed" : "the node is not started");
            }
            final RootInvocation<T> root = new RootInvocation<>(task, Thread.currentThread());
            if (restarted) {
                root.markRestarted();
            }
            final long[] before = counters();
            final long[] idleBefore = idleNs();
            final long startNs = System.nanoTime();
            current = root;
            submissions.add(root);
            wakeIdleWorker();
            boolean interrupted = false;
            try {
                while (root.status < Task.DONE) {
                    if (closing) {
                        // close() may have looked for a run before this one was published: cancel it here, and
                        // stop waiting once no worker is left to end it
                        Aborts.requestCancel(root);
                        if (!anyWorkerAlive()) {
                            break;
                        }
                        LockSupport.parkNanos(this, CLOSING_POLL_NS);
                    } else {
                        LockSupport.park(this);
                    }
                    interrupted |= Thread.interrupted();
                }
            } finally {
                current = null;
            }
            final long elapsedNs = System.nanoTime() - startNs;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            final RunStatistics statistics = statistics(before, idleBefore, elapsedNs);
            if (root.status == Task.DONE) {
                return new RunResult<>(root.value(), elapsedNs, statistics);
            }
            final Throwable failure = root.exception;
            if (failure == null) {
                throw new DivvyException("the run was cancelled: the node is closing");
            }
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof StackOverflowError overflow && overflow.getMessage() == null) {
                throw namingTheStackSetting(overflow);
            }
            if (failure instanceof Error e) {
                throw e;
            }
            throw new SpawnFailedException("the root task failed with " + failure, failure);
        }
    }

    /**
     * A bare stack overflow, as the JVM throws it, says nothing of why a spawn chain overflows sooner than the same
     * recursion would, nor what to change: the same class (a program may catch it), with the reason and the setting.
     * Built here, on the caller's shallow stack, not where the stack ran out.
     */
    private StackOverflowError namingTheStackSetting(final StackOverflowError overflow) {
        final StackOverflowError named = new StackOverflowError("a worker's stack overflowed (workerStackSizeBytes = "
            + workerStackSizeBytes + "): a spawn nests on its worker's stack, with the jobs the worker runs while it "
            + "waits in sync(), so a spawn chain goes less deep than the same plain recursion; raise "
            + "--worker-stack-size-bytes (property divvy.workerStackSizeBytes, NodeConfig.workerStackSizeBytes) or "
            + "spawn less deeply (run small subproblems sequentially below a threshold)");
        named.setStackTrace(overflow.getStackTrace());
        for (final Throwable suppressed : overflow.getSuppressed()) {
            named.addSuppressed(suppressed);
        }
        return named;
    }

    /**
     * Stops the workers and waits for their threads to end: a run under way is cancelled (its jobs stop at
     * their next spawn or sync, and its caller gets a {@link DivvyException}), so closing takes as long as
     * the longest stretch of a job without a spawn or sync, not the rest of the run. Idempotent.
     */
    private boolean anyWorkerAlive() {
        for (final Worker w : workers) {
            if (w.isAlive()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        closing = true;
        final RootInvocation<?> running = current;
        if (running != null) {
            Aborts.requestCancel(running);
        }
        for (final Worker w : workers) {
            LockSupport.unpark(w);
        }
        boolean interrupted = false;
        for (final Worker w : workers) {
            if (w.getState() == Thread.State.NEW) {
                continue;
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_JOIN_TIMEOUT_MS);
            while (w.isAlive() && deadlineNs - System.nanoTime() > 0) {
                try {
                    w.join(TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()) + 1);
                } catch (final InterruptedException e) {
                    interrupted = true;
                }
            }
            if (w.isAlive()) {
                throw new DivvyException("worker `" + w.getName() + "` did not stop within " + CLOSE_JOIN_TIMEOUT_MS +
                    " ms: a job is still running");
            }
        }
        final RootInvocation<?> unfinished = current;
        if (unfinished != null) {
            unfinished.wakeCaller(); // workers may have stopped before they ended it: its caller gives up itself
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    boolean isClosing() {
        return closing;
    }

    Task pollSubmission() {
        return submissions.isEmpty() ? null : submissions.poll();
    }

    boolean hasSubmission() {
        return !submissions.isEmpty();
    }

    Task pollRemote() {
        return remoteJobs.isEmpty() ? null : remoteJobs.poll();
    }

    boolean hasRemote() {
        return !remoteJobs.isEmpty();
    }

    /**
     * Queues a job that arrived from a peer ({@link RemoteLink#adopt adopted} first) and wakes a
     * worker. Any thread; used by the network agent.
     */
    public void submitRemote(final Task job) {
        remoteJobs.add(job);
        wakeIdleWorker();
    }

    /**
     * Whether the workers' deques hold at least {@code atLeast} jobs together (published ones; held-back
     * children are not counted). A hint, as {@link WorkStealingDeque#size}. Any thread; the network agent asks
     * it before giving a job across the wide area (LCRS).
     */
    public boolean hasQueuedJobs(final int atLeast) {
        int queued = 0;
        for (final Worker w : workers) {
            queued += w.deque.size();
            if (queued >= atLeast) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether every worker is out of work: each one failed to find a job in its deque and in the other
     * workers' deques since it last ran one, and nothing waits in the inbox. A hint (it may change at
     * once); the network agent polls it to decide that the node should steal from peers.
     */
    public boolean isOutOfWork() {
        return idlingWorkers.get() >= workers.length && remoteJobs.isEmpty() && submissions.isEmpty();
    }

    /**
     * Takes the oldest queued job (the base of a worker's deque), starting at worker {@code startWorker}
     * modulo the count, for a remote thief; null when every deque is empty. Any thread. Jobs whose parent
     * was asked to stop are cancelled on the way; the returned job is NEW but may be cancelled by its
     * parent at any moment, so claim it with {@link RemoteLink#claim}. Roots are never in a deque, so every
     * job returned was spawned by generated code: an {@code org.divvy.codegen.Job}.
     */
    public Task pollForRemoteThief(final int startWorker) {
        final int n = workers.length;
        final int start = Math.floorMod(startWorker, n);
        for (int i = 0; i < n; i++) {
            final Worker victim = workers[(start + i) % n];
            while (!victim.deque.isEmpty()) {
                final Task job = victim.deque.poll();
                if (job == null) {
                    break;
                }
                if (job.parent.cancelRequested) {
                    if (job.tryCancel()) {
                        Worker.completeCancelledBeforeStart(job, false);
                    }
                    continue;
                }
                if (job.status == Task.NEW) {
                    return job;
                }
            }
        }
        return null;
    }

    /**
     * Takes one parked worker out of the idle set and unparks it; does nothing if none is parked. Any thread: also
     * what another module calls when work only a worker can do arrived (writes from other nodes to apply).
     */
    public void wakeIdleWorker() {
        for (final Worker w : workers) {
            if (w.tryWake()) {
                idleWorkers.decrementAndGet();
                LockSupport.unpark(w);
                return;
            }
        }
    }

    /**
     * Jobs spawned, executed and cancelled on this node's workers since it started, whatever run they belonged
     * to (a node that only works for others runs no run of its own); {@code [spawned, executed, cancelled]}.
     * Read racily: exact once the workers are quiet.
     */
    public long[] jobCountsSinceStart() {
        final long[] c = counters();
        return new long[] {c[0], c[1], c[2]};
    }

    private long[] counters() {
        final long[] c = new long[5];
        for (final Worker w : workers) {
            c[0] += w.jobsSpawned;
            c[1] += w.jobsExecuted;
            c[2] += w.jobsCancelled;
            c[3] += w.stealAttempts;
            c[4] += w.steals;
        }
        return c;
    }

    private long[] idleNs() {
        final long[] idle = new long[workers.length];
        for (int i = 0; i < workers.length; i++) {
            idle[i] = workers[i].idleNs;
        }
        return idle;
    }

    private RunStatistics statistics(final long[] before, final long[] idleBefore, final long elapsedNs) {
        final long[] after = counters();
        final long[] idleAfter = idleNs();
        final long[] idle = new long[workers.length];
        for (int i = 0; i < idle.length; i++) {
            idle[i] = idleAfter[i] - idleBefore[i];
        }
        return new RunStatistics(after[0] - before[0], after[1] - before[1], after[2] - before[2],
            after[3] - before[3], after[4] - before[4], elapsedNs, idle);
    }
}
