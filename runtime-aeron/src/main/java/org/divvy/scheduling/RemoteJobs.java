package org.divvy.scheduling;

import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * The scheduler operations the network layer ({@code org.divvy.stealing}) needs on single jobs, kept
 * in one place so the job's state machine stays package-private. Which side calls what:
 * <ul>
 *   <li>Owner (victim) side: {@link Scheduler#pollForRemoteThief} takes the oldest queued job,
 *   {@link #claim} makes it RUNNING here for a thief, and exactly one of {@link #completeClaimed} (result
 *   or failure arrived, thief died) or {@link #cancelClaimed} (abort) ends it, notifying its parent as a
 *   locally stolen job would.</li>
 *   <li>Thief side: {@link #adopt} gives a decoded job its stamp and link, {@link Scheduler#submitRemote}
 *   queues it; when it ends, its link's {@link RemoteLink#onRemoteJobEnded} reports the outcome.</li>
 * </ul>
 */
public final class RemoteJobs {
    private RemoteJobs() {
    }

    /**
     * Owner side: links {@code job} (just polled, NEW) to {@code link} and claims it for a remote thief;
     * false when an abort cancelled it first (drop it then: the canceller counted it complete).
     */
    public static boolean claim(final Job job, final RemoteLink link) {
        return job.claimForRemoteThief(link);
    }

    /**
     * Owner side: undoes {@link #claim} when the job could not be sent, and queues it to run here;
     * false (and nothing queued) when something ended the job meanwhile.
     */
    public static boolean unclaimAndRunLocally(final Scheduler scheduler, final Job job) {
        if (!job.unclaim()) {
            return false;
        }
        scheduler.submitRemote(job);
        return true;
    }

    /**
     * Owner side: ends a claimed job with the thief's outcome: normally when {@code failure} is null
     * (read its result first with {@link #readResult}), else failed with {@code failure}. Notifies the
     * parent like a stolen job's completion. False if the job had already ended (aborted, or a duplicate).
     */
    public static boolean completeClaimed(final Job job, final Throwable failure) {
        return job.completeClaimed(failure);
    }

    /** Owner side: ends a claimed job as cancelled (its handle throws JobAbortedException); false if already ended. */
    public static boolean cancelClaimed(final Job job) {
        return job.cancelClaimed();
    }

    /** Thief side: gives a job decoded from the wire the stamp its owner gave it and its link home. */
    public static void adopt(final Job job, final Stamp stamp, final RemoteLink link) {
        job.adopt(stamp, link);
    }

    /** Asks a job to stop at its next spawn or sync (any thread); a queued one is dropped when taken. */
    public static void requestCancel(final Job job) {
        Aborts.requestCancel(job);
    }

    /** Writes the result of a job that completed normally. */
    public static void writeResult(final Job job, final WireWriter writer) {
        job.writeResult(writer);
    }

    /** Reads a result written by {@link #writeResult} into a claimed job, before {@link #completeClaimed}. */
    public static void readResult(final Job job, final WireReader reader) {
        job.readResult(reader);
    }

    /** Whether the job ended normally. */
    public static boolean isDone(final Job job) {
        return job.status == Job.DONE;
    }

    /** Whether the job ended with an exception ({@link #failure}). */
    public static boolean isFailed(final Job job) {
        return job.status == Job.FAILED;
    }

    /** The exception of a failed job. */
    public static Throwable failure(final Job job) {
        return job.exception;
    }

    /** The short name of the job's spawnable method, for messages. */
    public static String displayName(final Job job) {
        return job.displayName();
    }
}
