package org.divvy.scheduling;

/**
 * What result copies need from the workers: the jobs that ran long here and finished with a value, so the
 * network half can keep a copy of each on a node of another site (a site that dies takes the frames holding
 * its finished work with it). Installed by the network half only while such a node exists; a worker without
 * one pays one field read per job.
 *
 * <p>Called on worker threads; implementations read a clock and enqueue for the network agent, nothing more.
 */
public interface ResultCopyHook {
    /** The clock jobs are timed by, in ms; a coarse one (the network agent's cycle clock) is enough. */
    long nowMs();

    /**
     * {@code job}, which started at {@code startedMs} ({@link #nowMs}), ran here and finished with a value (not
     * aborted); its result is written. Called on its worker before the job's status is published.
     */
    void onFinished(Task job, long startedMs);
}
