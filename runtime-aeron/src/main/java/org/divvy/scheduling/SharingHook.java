package org.divvy.scheduling;

/**
 * What shared objects need from the workers (divide-and-share, thesis §5), installed by the shared-data
 * module through the network half. Writes that arrived from other nodes become visible at safe points:
 * a spawn, a sync, the end of a job, an explicit poll, and while a worker idles (so an idle node applies
 * them too). A job from another node first waits for the replicas it uses and checks its guard.
 * Called on worker threads; a node without shared objects installs none and pays one field read.
 */
public interface SharingHook {
    /** A safe point on a worker: apply the writes that arrived, if any (one volatile read when none did). */
    void safePoint();

    /**
     * A job that came from another node is about to start: wait until the replicas of its shared objects
     * are here, apply the writes that arrived, and evaluate its guard (waiting for late updates, then
     * fetching fresh replicas from the job's source when it fails). Returns when the job may run, or at once
     * when the job's cancellation is requested ({@link Task#isCancelRequested()}: its owner aborted it), so a
     * cancelled job does not hold the worker for the waits; the worker then cancels it.
     */
    void beforeRemoteJob(Task job);
}
