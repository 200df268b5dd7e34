package org.divvy.results;

import org.divvy.codegen.Job;
import org.divvy.scheduling.RemoteLink;

/**
 * A job this node stole and runs for a remote owner: where its outcome goes when it ends. The worker
 * that ends it enqueues it; the agent thread encodes and sends the outcome.
 */
final class ForeignJob extends RemoteLink {
    final ForeignJobs table;
    final Job job;
    final int ownerId;
    final long ownerJobId;
    /**
     * Whether this entry returns an orphan result this node holds to a node that asked for it (RESULT_REQUEST),
     * rather than the outcome of a job stolen from it; the link is not installed on the job then.
     */
    final boolean heldResult;
    /** When its result went to the owner (agent clock); it is kept a while in case the owner turns out dead. Agent thread only. */
    long sentAtNs;
    /** The run it belongs to ({@code ForeignJobs}' count of runs started when it was adopted). Agent thread only. */
    long run;
    /** Its result's encoded size when it encoded in the agent's own buffer (at most 64 KiB); -1 if larger: only small ones are kept after sending. Agent thread only. */
    int resultBytes = -1;
    /** Its arguments' encoded size as they arrived ({@link ForeignJobs#LARGE_ARGUMENTS} when decoded off the agent). */
    int argumentsBytes = ForeignJobs.LARGE_ARGUMENTS;

    /** What keeping it after sending counts against {@link ForeignJobs#MAX_RETAINED_SENT_BYTES}. */
    long retainedBytes() {
        return (long) argumentsBytes + Math.max(0, resultBytes);
    }

    ForeignJob(final ForeignJobs table, final Job job, final int ownerId, final long ownerJobId, final boolean heldResult) {
        super(job);
        this.table = table;
        this.job = job;
        this.ownerId = ownerId;
        this.ownerJobId = ownerJobId;
        this.heldResult = heldResult;
    }

    @Override
    protected void onEnded() {
        table.endedQueue.add(this);
    }
}
