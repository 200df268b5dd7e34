package org.divvy.scheduling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.divvy.UnsyncedSpawnException;

/**
 * One worker thread of a node: runs jobs from its own deque (LIFO), picks up submitted roots, steals
 * from other local workers (FIFO), and backs off to parking when there is nothing to do.
 *
 * <p>Spawn finds its worker with {@code Thread.currentThread() instanceof Worker} (no ThreadLocal), and
 * {@link #current} is the job whose code this thread is executing: the frame that spawn, sync and abort
 * act on. Everything here except {@link #parkState} and the statistics counters (read, racily, by the
 * run's caller) is owned by this thread.
 */
final class Worker extends Thread {
    static final int ACTIVE = 0;
    static final int PARKED = 1;
    static final int WOKEN = 2;

    private static final VarHandle PARK_STATE;

    static {
        try {
            PARK_STATE = MethodHandles.lookup().findVarHandle(Worker.class, "parkState", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Scheduler scheduler;
    final int workerId;

    /*
     * The node state every spawn, sync and job end reads, reachable from this thread's own object in one load:
     * through the scheduler each was a chain of two or three dependent loads (worker, scheduler, field, value),
     * the hottest single spots of the spawn path's profile (perf/README.md, "Cached loads on the spawn path").
     */

    /** The scheduler's count of parked workers ({@link Scheduler#idleWorkers}), the same object: a spawn reads it. */
    final AtomicInteger parkedWorkers;

    /** The scheduler's checking-mode hook ({@link Scheduler#computeHook}, fixed at construction); null for none. */
    private final ComputeHook computeHook;

    /**
     * This worker's copy of {@link Scheduler#sharingHook}, read at every safe point. The shared-data module installs
     * its hook after the workers started (when the network half starts), so the scheduler writes it into every
     * worker's copy ({@link Scheduler#sharingHook(SharingHook)}); volatile, so a hook installed at any time is seen
     * at the next safe point (a plain load on x86, as the scheduler's volatile field was).
     */
    volatile SharingHook sharingHook;

    /**
     * This worker's copy of result copies' hook ({@link Scheduler#resultCopyHook(ResultCopyHook)}): the network half installs it while a node of another
     * site is alive to keep copies, and removes it when none is (so a single-site run pays one field read per job).
     */
    volatile ResultCopyHook resultCopyHook;
    /**
     * A spawn leaves its job unpublished ({@link Task#UNPUBLISHED}) while this worker's deque offers thieves
     * at least this many jobs and no worker is parked: thieves take the oldest, largest jobs, so a few
     * suffice, and a job kept out of the deque saves its push and its pop's CAS. ForkJoinPool's
     * documentation suggests the same bound for its surplus heuristic ({@code getSurplusQueuedTaskCount() > 3}).
     */
    static final int STEALABLE_SURPLUS = 3;

    final WorkStealingDeque deque = new WorkStealingDeque();

    /** The job this thread is executing; null between jobs. */
    Task current;

    /**
     * Whether a frame on this thread's stack may hold back children ({@link Task#UNPUBLISHED}): set by every
     * spawn that holds one back, cleared when {@link #publishHeldChildren} has published them all. It spares
     * spawns and syncs the walk down the stack while nothing is held (a plain field: no fence, no barrier).
     */
    boolean mayHoldChildren;

    /** Scratch for {@link #publishHeldChildren}: the frames of this thread's stack, newest first. */
    private Task[] stackFrames = new Task[64];

    /** ACTIVE, PARKED (counted in the scheduler's idle count) or WOKEN (a spawner took it out). */
    volatile int parkState;

    private final IdleBackoff backoff;
    private int randomSeed;
    private boolean idling;
    private long idleSinceNs;

    // Statistics: written by this thread only, summed by the scheduler after a run.
    long jobsSpawned;
    long jobsExecuted;
    long jobsCancelled;
    long stealAttempts;
    long steals;
    long idleNs;

    Worker(final Scheduler scheduler, final int workerId, final String name, final long stackSizeBytes,
        final IdleBackoff backoff) {
        super(null, null, name, stackSizeBytes);
        this.scheduler = scheduler;
        this.workerId = workerId;
        this.parkedWorkers = scheduler.idleWorkers;
        this.computeHook = scheduler.computeHook;
        this.backoff = backoff;
        this.randomSeed = 0x9E3779B9 * (workerId + 1);
        setDaemon(true);
    }

    @Override
    public void run() {
        while (!scheduler.isClosing()) {
            Task job = deque.pop();
            if (job != null) {
                endIdle();
                executeLocal(job, null);
                continue;
            }
            job = scheduler.pollSubmission();
            if (job == null) {
                job = steal();
            }
            if (job == null) {
                job = scheduler.pollRemote();
            }
            if (job != null) {
                endIdle();
                executeForeign(job, null);
            } else {
                idle(null);
            }
        }
        endIdle();
    }

    /**
     * Runs a job popped from this worker's own deque, or an unpublished child of a frame syncing on this
     * thread. Its parent frame is on this thread's stack (a
     * frame ends only after its children), and only a frame's own thread cancels its queued children,
     * so nobody races for this job: start and completion need no atomic instruction.
     */
    void executeLocal(final Task job, final Task below) {
        if (job.status != Task.NEW) {
            return; // cancelled while queued, by this thread, which counted it then
        }
        final Task parent = job.parent;
        if (parent.cancelRequested) {
            jobsCancelled++;
            job.finish(Task.CANCELLED);
            parent.countCompletedLocally();
            return;
        }
        if (job.restarted && fetchedFromHolder(job)) {
            return; // its result comes from an orphan holder and completes it like a stolen job's
        }
        final int outcome = runGuarded(job, true, below);
        try {
            job.finish(outcome);
            if (outcome == Task.FAILED || (outcome == Task.DONE && job.resultCallback != null)) {
                parent.pushCompletion(job);
            }
        } catch (final Throwable t) {
            job.exception = t; // overflow at the very edge of the stack: publish without calls
            job.status = Task.FAILED;
            parent.completedLocally++;
            return;
        }
        parent.countCompletedLocally();
    }

    /** Runs a job stolen from another worker or submitted as a root; races with cancellation by CAS. */
    void executeForeign(final Task job, final Task below) {
        final Task parent = job.parent;
        if (parent != null ? parent.cancelRequested : job.cancelRequested) { // a remote job's owner aborted it
            if (job.tryCancel()) {
                completeCancelledBeforeStart(job, false);
            }
            return;
        }
        if (job.restarted && parent != null && fetchedFromHolder(job)) {
            return; // its result comes from an orphan holder and completes it like a stolen job's
        }
        final SharingHook sharing;
        if (parent == null && (sharing = sharingHook) != null) {
            sharing.beforeRemoteJob(job); // its replicas are here and its guard was checked (thesis §5.3)
            if (job.cancelRequested) { // its owner aborted it while it waited: the hook gave up at once
                if (job.tryCancel()) {
                    completeCancelledBeforeStart(job, false);
                }
                return;
            }
        }
        if (!job.tryStart()) {
            return; // cancelled while queued: the canceller has counted it complete
        }
        complete(job, runGuarded(job, false, below), false);
    }

    /** A restarted job whose result an orphan holder has: the recovery hook asks for it instead of running it. */
    private boolean fetchedFromHolder(final Task job) {
        final RecoveryHook hook = scheduler.recoveryHook;
        return hook != null && hook.fetchFromHolder(job);
    }

    /*
     * Stack overflows. A worker runs jobs nested on its stack, so deep recursion ends in a
     * StackOverflowError, possibly inside the scheduler's own code. A job taken from a deque must then
     * still complete, or its parent waits forever. So: a locally taken job becomes RUNNING only inside
     * run's guarded block (if the overflow hits before, it is still NEW and its parent's abort cancels
     * it), and every handler on this path only writes fields (a call could overflow again). These
     * handlers are the only writes of a job's state outside Task's own methods.
     */

    /** {@link #run}, also when the overflow hits on entering it: never throws. */
    private int runGuarded(final Task job, final boolean local, final Task below) {
        try {
            return run(job, local, below);
        } catch (final Throwable t) {
            job.cancelRequested = true; // its children, if any, stop when they look
            job.exception = t;
            job.frameBelow = null;
            return Task.FAILED;
        }
    }

    /**
     * Starts (if local) and runs a job as the current frame, above {@code below} (the frame syncing on this thread
     * that runs it, or null in the worker's loop); returns its outcome.
     */
    private int run(final Task job, final boolean local, final Task below) {
        final ResultCopyHook copies = resultCopyHook;
        final long startedMs = copies == null ? 0 : copies.nowMs();
        try {
            if (local) {
                job.startLocally();
            }
            job.enterFrame(below);
            current = job;
            if (job.parent != null) {
                jobsExecuted++;
            }
            if (computeHook != null || job.restarted) {
                computeWithHooks(job);
            } else {
                job.compute();
            }
            if (job.spawned != job.syncedSpawns && !job.cancelRequested && job.unsyncedSpawns() > 0) {
                throw unsynced(job); // its children are aborted and waited for below, as for any failure
            }
            if (job.spawned != 0 && (!job.isQuiet() || job.hasCompletions() || job.inletsRegistered)) {
                sync(job); // implicit sync: a job never ends before its children
            }
            safePoint(); // a job's end is a safe point for shared objects
            if (copies != null && !job.cancelRequested) {
                copyResult(copies, job, startedMs);
            }
        } catch (final Throwable failure) {
            current = below;
            job.leaveFrame();
            return failed(job, failure); // kept out of this method, so the JIT inlines the common path
        }
        current = null; // not `below`: see resume
        job.leaveFrame();
        return job.cancelRequested ? Task.CANCELLED : Task.DONE;
    }

    /** Hands a finished job to result copies; a copy is worth nothing next to the job's own outcome, so nothing it throws fails the job. */
    private static void copyResult(final ResultCopyHook copies, final Task job, final long startedMs) {
        try {
            copies.onFinished(job, startedMs);
        } catch (final Throwable lost) {
            // a StackOverflowError at the stack's edge or an OutOfMemoryError: this job is simply not copied
        }
    }

    /*
     * The current frame after a job. A job that ends normally leaves `current` null instead of restoring the frame
     * below it: storing a young job into this long-lived Thread object is a reference store from an old object to a
     * young one, for which G1's post-write barrier executes a full fence (lock addl) on every store, while storing
     * null skips that barrier. Every job's start must store itself (its body spawns through `current`), but the
     * frame below is restored only where user code of that frame runs again: when its sync returns or throws, and
     * before its inlets run. So a sync that runs k children pays k + 1 fences instead of 2k. Nothing between a job's
     * end and that restore reads `current`: the sync loops and publishHeldChildren take the frame as an argument.
     */

    /** The frame syncing on this thread is about to run user code (return to its body, run an inlet): makes it current. */
    private void resume(final Task frame) {
        if (current != frame) {
            current = frame;
        }
    }

    /** A safe point for shared objects on this thread: writes from other nodes that arrived are applied. */
    void safePoint() {
        final SharingHook hook = sharingHook;
        if (hook != null) {
            hook.safePoint();
        }
    }

    /** Computes {@code job} through the checking mode's or recovery's hook, if one takes it. */
    private void computeWithHooks(final Task job) throws Throwable {
        final ComputeHook hook = computeHook;
        if (hook == null || job.parent == null || !hook.compute(job)) {
            final RecoveryHook recovery;
            if (!job.restarted || (recovery = scheduler.recoveryHook) == null || !recovery.copyHeldResult(job)) {
                job.compute();
            }
        }
    }

    /** The end of a job whose computation threw {@code failure}: quiesces its frame; returns its outcome. */
    private int failed(final Task job, final Throwable failure) {
        try {
            if (!job.isQuiet()) {
                quiesce(job); // keeps the finished children of an orphan's frame
            } else {
                keepFinishedOrphans(job); // aborted at a spawn after every earlier child had finished
            }
        } catch (final Throwable quiesceFailure) {
            // end the job anyway; its children stop when they look, into a frame nobody reads
            job.cancelRequested = true;
        }
        // A real exception stays a failure even if the job was asked to stop meanwhile, so sync
        // reports the lowest-index failure whatever the timing.
        if (failure == AbortSignal.INSTANCE) {
            return Task.CANCELLED;
        }
        job.setException(failure);
        return Task.FAILED;
    }

    /**
     * A job that returned with children it never synced: their values can never be read, so the job either forgot
     * {@code sync()} (and computed its result without them) or spawned them for a side effect, which a job that may
     * run on a copy on another node must not have. An error, not a warning in a log: it reaches the caller of
     * {@code sync()} or {@code run()} on one node as on many.
     */
    private static UnsyncedSpawnException unsynced(final Task job) {
        final int count = job.unsyncedSpawns();
        final String who = job.parent == null && job.remoteLink() == null ? "the run's root" : "`" + job.displayName() + "`";
        return new UnsyncedSpawnException(who + " returned with " + count + (count == 1 ? " child" : " children")
            + " spawned after its last sync() and never synced, so their values could never be read: call sync() before "
            + "returning, or abort() the children it does not need");
    }

    /** Publishes the outcome and counts the job complete in its parent's frame. */
    private static void complete(final Task job, final int outcome, final boolean byParentThread) {
        job.finish(outcome);
        notifyParent(job, outcome, byParentThread);
    }

    /** Counts a job whose outcome is published complete in its parent's frame, or reports it if it has none. */
    static void notifyParent(final Task job, final int outcome, final boolean byParentThread) {
        final Task parent = job.parent;
        if (parent == null) {
            job.onCompletedWithoutLocalParent();
            return;
        }
        if (outcome == Task.FAILED || (outcome == Task.DONE && job.resultCallback != null)) {
            parent.pushCompletion(job);
        }
        if (byParentThread) {
            parent.countCompletedLocally();
            return;
        }
        parent.countCompletedChild();
        final Thread waiter = parent.waiter();
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Completes a job its canceller took from NEW to CANCELLED: it never runs. {@code byParentThread}
     * when the canceller is the thread running the job's parent.
     */
    static void completeCancelledBeforeStart(final Task job, final boolean byParentThread) {
        if (Thread.currentThread() instanceof Worker w) {
            w.jobsCancelled++;
        }
        complete(job, Task.CANCELLED, byParentThread);
    }

    /**
     * The sync of frame {@code frame} (this thread's current job): runs inlets of finished children,
     * runs its unpublished children (newest first), helps with local work while children are pending,
     * then rethrows failures.
     */
    void sync(final Task frame) {
        safePoint(); // a sync is a safe point for shared objects
        // Fast path, small enough for the JIT to inline into the spawning method: while the newest
        // children are unpublished and nothing else asks for attention (no finished child waiting with
        // an inlet or a failure, no cancellation), run them here, newest first, exactly as the full loop
        // would; the full loop takes over at the first thing it must handle.
        try {
            Task child = frame.firstChild;
            while (child != null && child.status == Task.UNPUBLISHED && !frame.cancelRequested && !frame.hasCompletions()) {
                final Task next = child.nextSibling;
                child.endUnpublished(); // first, so the publishing below leaves it to this thread
                if (!deque.hasSurplus(STEALABLE_SURPLUS)) {
                    publishHeldChildren(frame); // thieves took what they had: offer them the oldest held-back jobs
                }
                executeLocal(child, frame);
                child = next;
            }
            if (frame.isQuiet() && !frame.hasCompletions() && !frame.inletsRegistered && !frame.cancelRequested) {
                frame.endSync(); // every child done, no inlet to run and no failure to throw
                return;
            }
            syncFully(frame);
        } finally {
            // its body goes on, or catches what sync threw: also an Error thrown between a child's end (which left
            // `current` null) and here, so a body that catches it can still spawn and sync
            resume(frame);
        }
    }

    /**
     * The deque no longer offers thieves {@link #STEALABLE_SURPLUS} jobs: pushes the held-back
     * ({@link Task#UNPUBLISHED}) children of the frames on this thread's stack, oldest frame first, until it
     * does again (or nothing is held back any more). The oldest frames' children are the largest jobs, so
     * thieves, who poll the base, get those and not what the frame running now spawns next; and a worker that
     * waits in a deeper sync finds them in its own deque instead of parking beside them. A frame's children
     * are pushed newest first (its list's order), all at once: siblings are of one size in divide and
     * conquer, and the list is walked once. Owner only; every frame walked is on this thread's stack, so
     * the jobs pushed keep the deque's rule that its jobs belong to frames of its owner. {@code top} is the
     * frame running on this thread (the spawner, or the frame syncing), which {@link #current} may not name
     * between a child's end and the sync's return (see {@link #resume}).
     */
    void publishHeldChildren(final Task top) {
        Task[] frames = stackFrames;
        int count = 0;
        for (Task frame = top; frame != null; frame = frame.frameBelow) {
            if (count == frames.length) {
                frames = stackFrames = Arrays.copyOf(frames, count * 2);
            }
            frames[count++] = frame;
        }
        int oldest = count - 1;
        while (oldest >= 0 && !deque.hasSurplus(STEALABLE_SURPLUS)) {
            final Task frame = frames[oldest];
            frames[oldest--] = null;
            for (Task child = frame.firstChild; child != null; child = child.nextSibling) {
                if (child.status == Task.UNPUBLISHED) {
                    child.endUnpublished();
                    deque.push(child);
                }
            }
        }
        if (oldest < 0) {
            mayHoldChildren = false; // every frame was emptied
        } else {
            Arrays.fill(frames, 0, oldest + 1, null); // retain no finished frames
        }
    }

    /** {@link #sync}'s full loop: inlets, failures, cancellation, children out on other threads. */
    private void syncFully(final Task frame) {
        Task failed = null; // failures without inlet, linked through nextCompletion
        Task next = null; // where the search for UNPUBLISHED children goes on, in the children list
        int unpublished = -1; // frame.spawned when that search started at the list's head
        for (;;) {
            final boolean quiet = frame.isQuiet(); // read before draining: every push precedes its count
            if (frame.hasCompletions()) {
                resume(frame); // inlets are the frame's code: they may spawn
                failed = Inlets.drainCompletions(frame, failed);
            }
            if (frame.cancelRequested) {
                Aborts.abortChildren(frame);
                quiesce(frame);
                frame.endSync();
                endIdle();
                throw AbortSignal.INSTANCE;
            }
            if (quiet) {
                if (frame.takeInletsRegistered()) {
                    resume(frame);
                    failed = Inlets.deliverMissedInlets(frame, failed);
                }
                if (frame.isQuiet() && !frame.hasCompletions()) {
                    break;
                }
                continue; // an inlet spawned more children
            }
            if (unpublished != frame.spawned) { // new children since the last look: they are at the head
                unpublished = frame.spawned;
                next = frame.firstChild;
            }
            while (next != null && next.status != Task.UNPUBLISHED) {
                next = next.nextSibling;
            }
            if (next != null) { // newest first, as a pop of the deque would take them
                final Task child = next;
                next = child.nextSibling;
                child.endUnpublished();
                if (!deque.hasSurplus(STEALABLE_SURPLUS)) {
                    publishHeldChildren(frame);
                }
                executeLocal(child, frame);
            } else {
                if (mayHoldChildren && !deque.hasSurplus(STEALABLE_SURPLUS)) {
                    publishHeldChildren(frame); // an older frame's held-back children: help with them, never park beside them
                }
                if (!help(frame)) {
                    idle(frame);
                }
            }
        }
        endIdle();
        frame.endSync();
        if (failed != null) {
            SyncFailures.throwFailures(failed);
        }
    }

    /**
     * Cancels the children of {@code frame} and waits until every one has finished; ignores their
     * outcomes. Used when the frame fails or is aborted. It does not help with other work: once queued
     * children are cancelled, the pending ones run on other threads (a child running on this thread
     * would sit above this frame on the stack, and has ended), so waiting suffices, and the error path
     * stays shallow even after a stack overflow.
     */
    void quiesce(final Task frame) {
        Aborts.abortChildren(frame);
        for (;;) {
            final boolean quiet = frame.isQuiet();
            for (Task c = frame.takeCompletions(); c != null; ) {
                c = c.unlinkNextCompletion();
            }
            if (quiet) {
                break;
            }
            idle(frame);
        }
        endIdle();
        keepFinishedOrphans(frame);
    }

    /**
     * Orphan saving (thesis §3.3 step 2): a frame of an orphaned subtree that unwinds hands its children
     * that finished with a value to the recovery hook, which keeps and announces them.
     */
    private void keepFinishedOrphans(final Task frame) {
        final RecoveryHook hook = scheduler.recoveryHook;
        final RemoteLink orphan;
        if (hook == null || !frame.cancelRequested || (orphan = frame.orphanedTop()) == null) {
            return;
        }
        for (Task child = frame.firstChildAcquire(); child != null; child = child.nextSibling) {
            if (child.status == Task.DONE) {
                hook.onFinishedOrphan(child, orphan);
            }
        }
    }

    /** Pops a job of this worker's deque and runs it, or steals one and runs it; false if none found. */
    private boolean help(final Task frame) {
        Task job = deque.pop();
        if (job != null) {
            endIdle();
            executeLocal(job, frame);
            return true;
        }
        job = steal();
        if (job == null) {
            job = scheduler.pollRemote(); // a job stolen from a peer: this worker may be the node's only one
        }
        if (job != null) {
            endIdle();
            executeForeign(job, frame);
            return true;
        }
        return false;
    }

    /** Polls other local workers' deques from a random start; null when none yields a job. */
    private Task steal() {
        final Worker[] workers = scheduler.workers;
        final int n = workers.length;
        if (n < 2) {
            return null;
        }
        int r = randomSeed;
        r ^= r << 13;
        r ^= r >>> 17;
        r ^= r << 5;
        randomSeed = r;
        int index = (r & Integer.MAX_VALUE) % n;
        for (int i = 0; i < n; i++, index = index + 1 == n ? 0 : index + 1) {
            final Worker victim = workers[index];
            if (victim == this || victim.deque.isEmpty()) {
                continue;
            }
            stealAttempts++;
            final Task job = victim.deque.poll();
            if (job != null) {
                steals++;
                return job;
            }
        }
        return null;
    }

    /** One step of backing off: spin, yield or park. {@code frame} is the frame waiting in sync, if any. */
    private void idle(final Task frame) {
        safePoint(); // an idle worker applies writes from other nodes too
        if (!idling) {
            idling = true;
            idleSinceNs = System.nanoTime();
            scheduler.idlingWorkers.incrementAndGet();
        }
        switch (backoff.next()) {
            case IdleBackoff.SPIN -> Thread.onSpinWait();
            case IdleBackoff.YIELD -> Thread.yield();
            default -> park(frame, backoff.parkNs());
        }
    }

    /**
     * Parks, counted as idle so a spawn anywhere on the node wakes this worker, and (in sync) set as the
     * frame's waiter so a finishing child wakes it. A finishing child writes its count atomically before
     * it reads the waiter, and this thread writes the waiter before its final re-check, so that wake-up
     * is never lost. A spawn publishes its job with a release store, not a fence (a fence on every spawn
     * costs more than it saves), so a spawn racing with this re-check may miss this worker; the park
     * timeout, at most {@code idleParkMaxNs}, bounds that delay.
     */
    private void park(final Task frame, final long parkNs) {
        if (frame != null) {
            frame.setWaiter(this);
        }
        parkState = PARKED;
        parkedWorkers.incrementAndGet();
        if (!workVisible(frame)) {
            LockSupport.parkNanos(scheduler, parkNs);
        }
        if (PARK_STATE.compareAndSet(this, PARKED, ACTIVE)) {
            parkedWorkers.decrementAndGet();
        } else {
            parkState = ACTIVE; // a waker moved it to WOKEN and decremented the count for us
        }
        if (frame != null) {
            frame.clearWaiter();
        }
        final long nowNs = System.nanoTime();
        idleNs += nowNs - idleSinceNs;
        idleSinceNs = nowNs;
    }

    /** Called by a spawner: takes this worker out of the parked set; true if it did (then unparks it). */
    boolean tryWake() {
        return parkState == PARKED && PARK_STATE.compareAndSet(this, PARKED, WOKEN);
    }

    private boolean workVisible(final Task frame) {
        if (scheduler.isClosing() || !deque.isEmpty() || scheduler.hasRemote()) {
            return true;
        }
        if (frame != null) {
            if (frame.isQuiet() || frame.hasCompletions() || frame.cancelRequested) {
                return true;
            }
        } else if (scheduler.hasSubmission()) {
            return true;
        }
        for (final Worker w : scheduler.workers) {
            if (!w.deque.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void endIdle() {
        if (idling) {
            idling = false;
            scheduler.idlingWorkers.decrementAndGet();
            idleNs += System.nanoTime() - idleSinceNs;
            backoff.reset();
        }
    }
}
