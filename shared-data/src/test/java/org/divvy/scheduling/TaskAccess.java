package org.divvy.scheduling;

/** Tests: what the scheduler does to a job from outside the package (its owner's abort reaching a thief). */
public final class TaskAccess {
    private TaskAccess() {
    }

    /** As a remote job's owner aborting it: the job should stop, or not start. */
    public static void requestCancel(final Task job) {
        job.markCancelRequested();
    }
}
