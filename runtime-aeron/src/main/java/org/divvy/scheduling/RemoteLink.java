package org.divvy.scheduling;

/**
 * The network's side of a job that crossed nodes, installed by {@code org.divvy.stealing} through
 * {@link RemoteJobs}. Both calls come from scheduler threads and must not block: implementations
 * hand the job to the network agent.
 */
public interface RemoteLink {
    /**
     * Thief side: a job whose owner is remote has ended (done, failed or cancelled); called on the
     * thread that ended it. Its outcome is published.
     */
    void onRemoteJobEnded(Job job);

    /**
     * Owner side: a job out on a remote thief was asked to stop (its parent aborted, a sibling failed,
     * an ancestor was cancelled); called on the aborting thread. The link should end the job here at
     * once ({@link RemoteJobs#cancelClaimed}) and forward the abort to the thief.
     */
    void onCancelRequested(Job job);
}
