package org.divvy.scheduling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

import org.divvy.DivvyException;
import org.divvy.JobAbortedException;
import org.divvy.SyncRequiredException;

/**
 * One invocation as the scheduler sees it: the invocation record of the thesis (§1.2) and, while it
 * runs, the frame of its own invocation: its children, spawn counter and sync state live in it, so a
 * spawn allocates exactly one object. Spawned invocations are {@code org.divvy.codegen.Job}s (generated
 * code extends them; a job adds what travels: the job type, the argument and result codecs); the root of
 * a run is a {@link RootInvocation}. Nothing here knows the wire: the network half calls the codecs on
 * the {@code Job}.
 *
 * <p>State. Every field is package-private, and every write of it goes through a method of this class
 * named for the transition it makes (start, finish, cancel, link a child, end a sync, claim for a remote
 * thief...); the scheduler's other classes call these methods. The only exceptions are
 * {@link Worker}'s stack-overflow handlers, which write fields without a call because a call there could
 * overflow again. Which thread writes each field is noted on it; see {@link WorkStealingDeque}'s
 * overview for the whole protocol. The network half reaches a job's state only through its
 * {@link RemoteLink}.
 *
 * <p>Hooks, protected for the subclasses in {@code org.divvy.codegen}: {@link #compute()},
 * {@link #runResultCallback()}, {@link #guard()} and {@link #spawnableName()}, and the accessors the
 * result-specialised jobs build their handles from.
 */
public abstract class Task {

    /** Runs the spawnable method and stores its result in this job. */
    protected abstract void compute() throws Throwable;

    /** Runs the result inlet registered on this handle, if any; on the parent's thread. */
    protected abstract void runResultCallback();

    /**
     * The guard of the spawnable method, or {@code true} when it has none. Called before a stolen job
     * runs (guard consistency).
     */
    protected boolean guard() {
        return true;
    }

    /**
     * The name every node knows this invocation's spawnable method by ({@code a.Fib#fib}), for
     * messages; it may throw, and messages then use the class name.
     */
    protected abstract String spawnableName();

    // ---------------------------------------------------------------------------------------------
    // Scheduler-owned state. Which thread writes each field is noted on it; see WorkStealingDeque's
    // overview for the whole protocol. Every field widens every job (the spawn path's only allocation),
    // so state that few jobs need lives in JobExtras.
    // ---------------------------------------------------------------------------------------------

    /**
     * Spawned but not published: the job is in its parent's children list only, in no deque, so no thief
     * can take it and only the thread running the parent touches its status; the parent's sync runs it, or
     * that thread publishes it (pushes it, NEW) once its deque runs short (see WorkStealingDeque's overview:
     * lazy task creation). Below NEW, so it counts as not done.
     */
    static final int UNPUBLISHED = -1;
    static final int NEW = 0;
    static final int RUNNING = 1;
    static final int DONE = 2;
    static final int FAILED = 3;
    static final int CANCELLED = 4;

    /** The inlet registered for the result, typed by the subclass; null when none. */
    Object resultCallback;

    /** The invocation that spawned this job; null for a root (or, later, a job whose parent is remote). */
    Task parent;

    /** Index among the parent's children, counting every spawn of that invocation across syncs. */
    int childIndex;

    /**
     * UNPUBLISHED, NEW, RUNNING, DONE, FAILED or CANCELLED. Leaves NEW by CAS where two parties can race (a thief and
     * the parent's abort), so exactly one runs or cancels it; see WorkStealingDeque's overview.
     */
    volatile int status;

    /** Set (by any thread) when this running job should stop at its next spawn or sync. */
    volatile boolean cancelRequested;

    /**
     * Whether an inlet was registered on a child of this frame since its last sync (owner only). An
     * inlet is registered after spawn published the child, so the child may finish without seeing it;
     * sync then finds such children in the children list.
     */
    boolean inletsRegistered;

    /** Whether this job's result inlet has run (the parent's thread only). */
    boolean inletDelivered;

    /**
     * Whether this job is recomputed after a crash (thesis §3.3): a job given to a thief that died, put
     * back here; a job stolen from such a job; or a descendant of either, which inherits the mark when
     * spawned. Restarted jobs are looked up in the orphan table before they run ({@link RecoveryHook}).
     * Written before the job is published.
     */
    boolean restarted;

    /** The exception of a FAILED job; written before the status is published. */
    Throwable exception;

    /** Children spawned by this invocation so far; written only by the thread running this job. */
    int spawned;

    /**
     * Children finished on the thread running this job (popped from its own deque, or cancelled by it):
     * a plain counter, since only that thread touches it.
     */
    int completedLocally;

    /**
     * The value of {@link #spawned} when this invocation's last sync completed: a child's value is
     * readable iff its {@link #childIndex} is below it (it was spawned before a completed sync). Written
     * only by the thread running this job.
     */
    int syncedSpawns;

    /**
     * The children spawned since the last completed sync, newest first. Written by the owner with
     * release semantics (no fence on the spawn path); read by aborting threads with acquire semantics.
     */
    Task firstChild;

    /** The next older sibling in the parent's {@link #firstChild} list; fixed before publication. */
    Task nextSibling;

    /**
     * While this job runs: the frame below it on its worker's stack (the frame whose sync started it on that
     * worker), or null at the stack's bottom. Lets the worker find, oldest first, the frames holding back
     * children ({@link Worker#publishHeldChildren}). Written by that worker only, and cleared when the job ends
     * so a finished handle retains no frames.
     */
    Task frameBelow;

    /** Rarely needed state (failure inlet, remote stamp, completion stack, waiter); null until needed. */
    volatile JobExtras extras;

    private static final VarHandle STATUS;
    private static final VarHandle COMPLETED;
    private static final VarHandle COMPLETION_HEAD;
    private static final VarHandle EXTRAS;
    private static final VarHandle FIRST_CHILD;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATUS = lookup.findVarHandle(Task.class, "status", int.class);
            COMPLETED = lookup.findVarHandle(JobExtras.class, "completed", int.class);
            COMPLETION_HEAD = lookup.findVarHandle(JobExtras.class, "completionHead", Task.class);
            EXTRAS = lookup.findVarHandle(Task.class, "extras", JobExtras.class);
            FIRST_CHILD = lookup.findVarHandle(Task.class, "firstChild", Task.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** NEW to RUNNING without CAS: for a job its parent's own thread took, which nobody else can cancel. */
    final void startLocally() {
        STATUS.setRelease(this, RUNNING);
    }

    /** Its worker, as this job starts running there: {@code below} is the frame under it on that worker's stack. */
    final void enterFrame(final Task below) {
        frameBelow = below;
    }

    /** Its worker, as this job ends: it is off the stack, and its handle retains no frame. */
    final void leaveFrame() {
        frameBelow = null;
    }

    /** NEW to RUNNING; false if the job was cancelled first (the canceller has counted it complete). */
    final boolean tryStart() {
        return STATUS.compareAndSet(this, NEW, RUNNING);
    }

    /** Publishes the final status; the result or exception was written before (release). */
    final void finish(final int outcome) {
        STATUS.setRelease(this, outcome);
    }

    /**
     * Spawn, when the job is not published: it stays in its parent's children list only. A plain store, not a
     * volatile one (which costs a full fence on x86, once per spawn): until {@link #endUnpublished} publishes it
     * with a release store, only the thread running the parent acts on an unpublished job; other threads reach it
     * only through the children list, to ask RUNNING children to stop, and whether they see NEW or UNPUBLISHED
     * they leave it alone.
     */
    final void holdUnpublished() {
        STATUS.set(this, UNPUBLISHED);
    }

    /**
     * Owner (the thread running the parent), before it runs or cancels an unpublished job: makes it an
     * ordinary NEW job, which the recovery hook may hand to the network agent and abort may race for.
     */
    final void endUnpublished() {
        STATUS.setRelease(this, NEW);
    }

    /** Whether this job was never spawned nor started: the only state in which it may be spawned. */
    final boolean isUnspawned() {
        return parent == null && status == NEW;
    }

    /**
     * Owner: makes {@code child} (unspawned) the newest child of this frame: its parent, its child index
     * and the head of the children list. The child is published later, by the deque push.
     */
    final void linkChild(final Task child) {
        child.parent = this;
        child.childIndex = spawned++;
        child.restarted = restarted;
        child.nextSibling = firstChild;
        FIRST_CHILD.setRelease(this, child);
    }

    /**
     * Owner: counts a child this frame chose not to spawn ({@code Spawner.skipSpawn}): its index is taken, so the
     * later children keep the indices (and stamps) they have when it is spawned, and it counts as finished at once,
     * so sync waits for no job there.
     */
    final void skipChild() {
        spawned++;
        completedLocally++;
    }

    /**
     * Owner, when a sync completes (or unwinds an abort): every child spawned so far becomes readable,
     * and none needs to be found for abort any more.
     */
    final void endSync() {
        syncedSpawns = spawned;
        FIRST_CHILD.setRelease(this, (Task)null);
    }

    /** Owner, on {@code abort()}: every child spawned so far was discarded on purpose (see {@link #unsyncedSpawns}). */
    final void markAborted() {
        extras().abortedSpawns = spawned;
    }

    /**
     * Owner, when the invocation's body has returned: how many children it spawned after its last completed sync and
     * its last {@code abort()} without an inlet, that is, children whose values nobody can read. (A child with an inlet
     * is read by it, in the implicit sync.) Walks the children since the last sync: only on that rare path.
     */
    final int unsyncedSpawns() {
        final JobExtras e = extras;
        final int discardedBelow = Math.max(syncedSpawns, e == null ? 0 : e.abortedSpawns);
        int unread = 0;
        for (Task child = firstChildAcquire(); child != null && child.childIndex >= discardedBelow; child = child.nextSibling) {
            if (child.resultCallback == null && child.failureCallback() == null) {
                unread++;
            }
        }
        return unread;
    }

    /** Owner: whether an inlet was registered on a child since the last call; clears the mark. */
    final boolean takeInletsRegistered() {
        if (!inletsRegistered) {
            return false;
        }
        inletsRegistered = false;
        return true;
    }

    /** Owner: counts one child finished on this frame's own thread. */
    final void countCompletedLocally() {
        completedLocally++;
    }

    /** Any thread: the newest child, for an abort scan. */
    final Task firstChildAcquire() {
        return (Task)FIRST_CHILD.getAcquire(this);
    }

    /** NEW to CANCELLED; false if it already started (or ended). */
    final boolean tryCancel() {
        return STATUS.compareAndSet(this, NEW, CANCELLED);
    }

    /** Counts one child of this frame finished by another thread (any thread) and returns the new count. */
    final int countCompletedChild() {
        return (int)COMPLETED.getAndAdd(extras(), 1) + 1;
    }

    /** Any thread: asks this job to stop at its next spawn or sync. */
    /** Whether this job was asked to stop (its owner aborted it, or a failure ended its frame); any thread. */
    public final boolean isCancelRequested() {
        return cancelRequested;
    }

    final void markCancelRequested() {
        cancelRequested = true;
    }

    /** Marks this job as recomputed after a crash; before it is (re)published. */
    final void markRestarted() {
        restarted = true;
    }

    /**
     * Recovery: a job decoded from another node's keeping, whose result was read into it here, becomes a
     * finished job without running (a job never spawned here; a spawned one is left as it is). Its result
     * can then be handed on like that of a job that ran here.
     */
    public final void markFinishedElsewhere() {
        if (isUnspawned() && status == NEW) {
            finish(DONE);
        }
    }

    /** Whether this job is recomputed after a crash: see {@link #restarted}. */
    public final boolean isRestarted() {
        return restarted;
    }

    /**
     * Whether this job belongs to an orphaned subtree: the top of its chain of local parents is a job run
     * for a remote owner whose link was {@link RemoteLink#markOrphaned marked} (the owner died, or declared
     * it an orphan). Walks the parent chain: only abort paths ask.
     */
    final boolean isInOrphanedSubtree() {
        return orphanedTop() != null;
    }

    /** The link of the orphaned job at the top of this job's parent chain, or null: see {@link #isInOrphanedSubtree}. */
    final RemoteLink orphanedTop() {
        Task top = this;
        while (top.parent != null) {
            top = top.parent;
        }
        final RemoteLink link = top.remoteLink();
        return link != null && link.isOrphaned() ? link : null;
    }

    /** This job's extras, installing them if none yet (any thread). */
    final JobExtras extras() {
        final JobExtras existing = extras;
        if (existing != null) {
            return existing;
        }
        final JobExtras created = new JobExtras();
        final JobExtras won = (JobExtras)EXTRAS.compareAndExchange(this, (JobExtras)null, created);
        return won == null ? created : won;
    }

    /** Pushes a finished child on this frame's completion stack (any thread). */
    final void pushCompletion(final Task child) {
        final JobExtras frame = extras();
        final JobExtras link = child.extras();
        Task head;
        do {
            head = frame.completionHead;
            link.nextCompletion = head;
        } while (!COMPLETION_HEAD.compareAndSet(frame, head, child));
    }

    /** Whether finished children wait on this frame's completion stack. */
    final boolean hasCompletions() {
        final JobExtras e = extras;
        return e != null && e.completionHead != null;
    }

    /** Takes the whole completion stack (owner only); null when empty. */
    final Task takeCompletions() {
        final JobExtras e = extras;
        return e == null || e.completionHead == null ? null : (Task)COMPLETION_HEAD.getAndSet(e, (Task)null);
    }

    /**
     * Parent's thread: the next job in the completion stack or failure list this job was taken from, and
     * unlinks this job from it.
     */
    final Task unlinkNextCompletion() {
        final JobExtras e = extras;
        if (e == null) {
            return null;
        }
        final Task next = e.nextCompletion;
        e.nextCompletion = null;
        return next;
    }

    /** Parent's thread: links this failed job in front of {@code failedHead} in a sync's failure list. */
    final void linkFailure(final Task failedHead) {
        extras().nextCompletion = failedHead;
    }

    /** The thread parked in this frame's sync, or null. */
    final Thread waiter() {
        final JobExtras e = extras;
        return e == null ? null : e.waiter;
    }

    /** Owner: {@code thread} parks in this frame's sync; a finishing child or an abort unparks it. */
    final void setWaiter(final Thread thread) {
        extras().waiter = thread;
    }

    /** Owner: no thread is parked in this frame's sync any more. */
    final void clearWaiter() {
        extras.waiter = null;
    }

    /** Parent's thread, in sync: runs the result inlet of this job (DONE), once. */
    final void deliverResult() {
        inletDelivered = true;
        runResultCallback();
    }

    /**
     * The exception sync reports for this job: its own, written by its runner before the status FAILED
     * is published, or its inlet's, written by the parent's thread in sync.
     */
    final void setException(final Throwable failure) {
        exception = failure;
    }

    /** The failure inlet, or null. */
    final Consumer<? super Throwable> failureCallback() {
        final JobExtras e = extras;
        return e == null ? null : e.failureCallback;
    }

    /** The stamp given by the node this job came from, or null for a job spawned here. */
    final Stamp remoteStamp() {
        final JobExtras e = extras;
        return e == null ? null : e.remoteStamp;
    }

    /** Whether every child spawned so far has finished (owner only: reads its own counters). */
    final boolean isQuiet() {
        final JobExtras e = extras;
        return completedLocally + (e == null ? 0 : e.completed) == spawned;
    }

    /**
     * Owner side: links a job just polled from a deque to {@code link} and claims it for a remote thief
     * instead of running it here (false if an abort cancelled it first; then drop it: the canceller
     * counted it complete). From then on the job is RUNNING on this node: an abort reaches it through
     * {@link Aborts#requestCancel}, which calls its link, and its parent waits until the thief's result
     * (or failure, or cancellation) completes it like a stolen job.
     */
    final boolean claimForRemoteThief(final RemoteLink link) {
        extras().remoteLink = link;
        return tryStart();
    }

    /**
     * Owner side: RUNNING back to NEW and unlinked, when the claim could not be sent; false if something
     * ended the job meanwhile.
     */
    final boolean unclaim() {
        if (!STATUS.compareAndSet(this, RUNNING, NEW)) {
            return false;
        }
        extras.remoteLink = null;
        return true;
    }

    /**
     * Owner side: ends a claimed job with the thief's outcome: DONE when {@code failure} is null (its
     * result was read first), else FAILED with {@code failure}; notifies the parent like a stolen job's
     * completion. The result, a failure, an abort and a dead thief race to end it, and exactly one wins:
     * false if the job had already ended.
     */
    final boolean completeClaimed(final Throwable failure) {
        if (failure != null) {
            exception = failure; // harmless if the CAS below loses: nobody reads a cancelled job's exception
        }
        return finishClaimed(failure == null ? DONE : FAILED);
    }

    /** Owner side: ends a claimed job as cancelled (its handle throws JobAbortedException); false if already ended. */
    final boolean cancelClaimed() {
        return finishClaimed(CANCELLED);
    }

    private boolean finishClaimed(final int outcome) {
        if (!STATUS.compareAndSet(this, RUNNING, outcome)) {
            return false;
        }
        Worker.notifyParent(this, outcome, false);
        return true;
    }

    /**
     * Thief side: gives a job decoded from the wire the stamp its owner gave it and its link home, before
     * it is submitted.
     */
    final void adopt(final Stamp stamp, final RemoteLink link) {
        final JobExtras e = extras();
        e.remoteStamp = stamp;
        e.remoteLink = link;
    }

    /** The network half's link of a job that crossed nodes, or null. */
    final RemoteLink remoteLink() {
        final JobExtras e = extras;
        return e == null ? null : e.remoteLink;
    }

    /**
     * Called instead of notifying a parent when a job without a local parent ends: the root run's
     * completion ({@link RootInvocation}), or a job whose owner is remote: its link sends the outcome there.
     */
    void onCompletedWithoutLocalParent() {
        final RemoteLink link = remoteLink();
        if (link != null) {
            link.onEnded();
        }
    }

    /** The short name of this job's spawnable method for messages: {@code fib} of {@code a.Fib#fib}. */
    final String displayName() {
        String name;
        try {
            name = spawnableName();
        } catch (final RuntimeException e) {
            name = getClass().getSimpleName();
        }
        final int hash = name.lastIndexOf('#');
        return hash >= 0 ? name.substring(hash + 1) : name;
    }

    /**
     * This job's reproducible identity (thesis §2.4): the parent's stamp plus this job's child index,
     * derived on demand so a spawn pays nothing for it.
     */
    final Stamp stamp() {
        return Stamp.of(this);
    }

    /** The short name of this invocation's spawnable method ({@code fib}), as messages and logs name it. */
    @Override
    public final String toString() {
        return displayName();
    }

    /**
     * Throws unless the value may be read: {@link org.divvy.SyncRequiredException} before the parent's
     * sync, the job's own exception if it failed, {@link org.divvy.JobAbortedException} if aborted.
     */
    protected final void checkReadable() {
        final Task p = parent;
        if (p != null && childIndex >= p.syncedSpawns) {
            throw new SyncRequiredException("handle of `" + displayName() + "` read before sync(): call sync() first");
        }
        switch (status) {
            case DONE -> {
            }
            case FAILED -> throw SyncFailures.unchecked(this, exception);
            case CANCELLED -> throw new JobAbortedException("job `" + displayName() + "` (stamp " + stamp() +
                ") was aborted; it has no value");
            default -> throw new DivvyException("handle of `" + displayName() + "` read while the job is still running");
        }
    }

    /** Whether the job has finished: with a value, an exception or by abort ({@code Handle.isDone}). */
    public final boolean isDone() {
        return status >= DONE;
    }

    /** The result inlet, typed by the subclass that stored it; null when none. */
    protected final Object resultCallback() {
        return resultCallback;
    }

    /** Stores a failure inlet (parent's thread, before its sync); subclasses narrow the return type. */
    protected final void setFailureCallback(final Consumer<? super Throwable> callback) {
        extras().failureCallback = callback;
    }

    /**
     * Stores a result inlet (parent's thread, before its sync) and marks the parent's frame so its sync
     * finds a child that finished before the inlet was there; subclasses narrow the return type.
     */
    protected final void setResultCallback(final Object callback) {
        resultCallback = callback;
        final Task p = parent;
        if (p != null) {
            p.inletsRegistered = true;
        }
    }
}
