package org.divvy.scheduling;

/**
 * Runs the body of a spawned job in place of its own {@code compute()}: checking mode
 * ({@code NodeConfig.checkCodecs}) installs one that runs a copy decoded from the job's encoding, as a
 * thief would. Called on the worker running the job, with the job as its current frame, so the copy's
 * spawns and syncs are the job's own. Not called for a run's root or for jobs stolen from other nodes
 * (those arrived decoded).
 */
public interface ComputeHook {
    /** Runs {@code job}'s body and returns true, or returns false for a task it does not handle (then it runs as usual). */
    boolean compute(Task job) throws Throwable;

    /** Whether {@code t} is the scheduler's own signal that the running job was aborted: it must pass through unchanged. */
    static boolean isAbort(final Throwable t) {
        return t == AbortSignal.INSTANCE;
    }
}
