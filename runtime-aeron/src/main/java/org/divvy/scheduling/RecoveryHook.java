package org.divvy.scheduling;

/**
 * What fault tolerance needs from the workers (thesis §3.3), installed by the network half: restarted
 * jobs looked up in the orphan table before they run, and finished jobs of an orphaned subtree kept.
 * Called on worker threads; implementations only read concurrent tables and enqueue for the network
 * agent. Never called for a job that is not restarted or not in an orphaned subtree, so a crash-free run
 * pays one field read per job start and nothing per spawn but the inherited mark.
 */
public interface RecoveryHook {
    /**
     * A restarted job (its parent is local) is about to start: true when an orphan holder on another
     * node has its result, and the hook took the job to ask for it (the job stays NEW until the network
     * agent claims it, so an abort meanwhile still cancels it; it completes like a stolen job); false to
     * run it as usual.
     */
    boolean fetchFromHolder(Task job);

    /** A restarted job is about to compute: true when this node holds its result and copied it into the job. */
    boolean copyHeldResult(Task job) throws Throwable;

    /**
     * A job of an orphaned subtree (one whose owner died, or that its owner declared an orphan) finished
     * with a value: keep it and announce it, unless {@code orphan}, the link whose mark made the subtree an
     * orphan, is no longer marked when the network agent takes it (a new run started meanwhile). Called on
     * the thread that ends the aborted frame holding it, or on the network agent.
     */
    void onFinishedOrphan(Task job, RemoteLink orphan);
}
