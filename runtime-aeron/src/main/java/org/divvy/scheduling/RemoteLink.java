package org.divvy.scheduling;

import java.util.Objects;

/**
 * The network half's link to one job that crossed nodes, and its only way to act on that job. The
 * network half subclasses it for each side: on the owner, a job given to a remote thief; on the thief, a
 * job it runs for a remote owner. Each method is one transition or query of the job, made by the job's
 * own method ({@link Task}), so the job's state machine stays package-private.
 *
 * <ul>
 *   <li>Owner (victim) side: {@link Scheduler#pollForRemoteThief} takes the oldest queued job,
 *   {@link #claim} makes it RUNNING here for the thief, and exactly one of {@link #complete} (a result or
 *   failure arrived, or the thief died) or {@link #cancel} (abort) ends it, notifying its parent as a
 *   locally stolen job would; {@link #unclaimAndRunLocally} undoes a claim that could not be sent. An
 *   abort of the job calls {@link #onCancelRequested}.</li>
 *   <li>Thief side: {@link #adopt} gives a decoded job its owner's stamp and this link,
 *   {@link Scheduler#submitRemote} queues it, {@link #requestCancel} stops it; when it ends,
 *   {@link #onEnded} is called and {@link #isDone}, {@link #isFailed} and {@link #failure} give the
 *   outcome.</li>
 * </ul>
 *
 * The callbacks come from scheduler threads and must not block: implementations hand the job to the
 * network agent.
 */
public abstract class RemoteLink {
    private final Task task;
    /** Set (any thread) when the job's owner died or declared it an orphan: its finished descendants are kept. */
    private volatile boolean orphaned;

    protected RemoteLink(final Task task) {
        this.task = Objects.requireNonNull(task, "task");
    }

    /**
     * Owner side: links the job (just polled, NEW) to this link and claims it for the remote thief;
     * false when an abort cancelled it first (drop it then: the canceller counted it complete).
     */
    public final boolean claim() {
        return task.claimForRemoteThief(this);
    }

    /**
     * Owner side: undoes {@link #claim} when the job could not be sent, and queues it to run here; false
     * (and nothing queued) when something ended the job meanwhile.
     */
    public final boolean unclaimAndRunLocally(final Scheduler scheduler) {
        if (!task.unclaim()) {
            return false;
        }
        scheduler.submitRemote(task);
        return true;
    }

    /**
     * Owner side, recovery (thesis §3.3 step 1): the thief holding the claimed job died, so the job goes
     * back to run here, marked restarted (its descendants inherit the mark and are looked up in the
     * orphan table); false (nothing queued) when something ended it meanwhile.
     */
    public final boolean requeueRestarted(final Scheduler scheduler) {
        if (!task.unclaim()) {
            return false;
        }
        task.markRestarted();
        scheduler.submitRemote(task);
        return true;
    }

    /**
     * Owner side: ends the claimed job with the thief's outcome: normally when {@code failure} is null
     * (its result was read into the job first), else failed with {@code failure}. Notifies the parent
     * like a stolen job's completion. False if the job had already ended (aborted, or a duplicate).
     */
    public final boolean complete(final Throwable failure) {
        return task.completeClaimed(failure);
    }

    /** Owner side: ends the claimed job as cancelled (its handle throws JobAbortedException); false if already ended. */
    public final boolean cancel() {
        return task.cancelClaimed();
    }

    /**
     * Thief side: gives the job, decoded from the wire, the stamp its owner gave it and this link home;
     * {@code restarted} when the owner recomputes it after a crash (its descendants are looked up in the
     * orphan table).
     */
    public final void adopt(final Stamp ownerStamp, final boolean restarted) {
        task.adopt(ownerStamp, this);
        if (restarted) {
            task.markRestarted();
        }
    }

    /**
     * Thief side: the job's owner died or declared it an orphan. Mark before asking it to stop, so the
     * frames that unwind keep their finished children ({@link RecoveryHook#onFinishedOrphan}).
     */
    public final void markOrphaned() {
        orphaned = true;
    }

    /**
     * Thief side: a new run started, so what this orphan of the last run still finishes must not be kept
     * (its stamps name jobs of that run). Kept parts already handed over are checked against this.
     */
    public final void clearOrphaned() {
        orphaned = false;
    }

    /** Whether {@link #markOrphaned} was called (and not {@link #clearOrphaned}). */
    public final boolean isOrphaned() {
        return orphaned;
    }

    /** Owner side: whether the job, out on a thief, lies in an orphaned subtree of this node (its abort propagates the orphaning). */
    public final boolean isInOrphanedSubtree() {
        return task.isInOrphanedSubtree();
    }

    /** Whether the job is recomputed after a crash. */
    public final boolean isRestarted() {
        return task.isRestarted();
    }

    /** Thief side: asks the job to stop at its next spawn or sync (any thread); queued, it is dropped when taken. */
    public final void requestCancel() {
        Aborts.requestCancel(task);
    }

    /** Whether the job ended normally. */
    public final boolean isDone() {
        return task.status == Task.DONE;
    }

    /** Whether the job ended with an exception ({@link #failure}). */
    public final boolean isFailed() {
        return task.status == Task.FAILED;
    }

    /** The exception of a failed job. */
    public final Throwable failure() {
        return task.exception;
    }

    /** The job's stamp. */
    public final Stamp stamp() {
        return task.stamp();
    }

    /** The short name of the job's spawnable method, for messages. */
    public final String displayName() {
        return task.displayName();
    }

    /**
     * Thief side: the job, whose owner is remote, has ended (done, failed or cancelled); called on the
     * thread that ended it, after its outcome is published. Owner-side links are never called here: a
     * given job has a local parent, which its completion notifies.
     */
    protected void onEnded() {
    }

    /**
     * Owner side: the job, out on a remote thief, was asked to stop (its parent aborted, a sibling failed,
     * an ancestor was cancelled); called on the aborting thread. The link should end the job here at once
     * ({@link #cancel}) and forward the abort to the thief. Thief-side links are never called here: their
     * job has no local parent, so an abort reaches it as a local running job.
     */
    protected void onCancelRequested() {
    }
}
