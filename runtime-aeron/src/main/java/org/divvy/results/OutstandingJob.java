package org.divvy.results;

import org.divvy.codegen.Job;
import org.divvy.scheduling.RemoteLink;

/**
 * A job this node gave to a remote thief (an entry of the thesis' {@code outstandingJobs}, §3.2): it is
 * RUNNING here until the thief's result, failure or abort notice ends it, or an abort or the thief's
 * death ends it first. The table holding it belongs to the agent thread; only {@link #onCancelRequested}
 * runs elsewhere, and it only ends the job and enqueues.
 */
final class OutstandingJob extends RemoteLink {
    final GivenJobs table;
    final Job job;
    final int thiefId;
    final long ownerJobId;
    /** Whether its STEAL_REPLY went to the thief; until then an abort needs no ABORT and a dead thief loses nothing. Agent thread only. */
    boolean sent;

    OutstandingJob(final GivenJobs table, final Job job, final int thiefId, final long ownerJobId) {
        super(job);
        this.table = table;
        this.job = job;
        this.thiefId = thiefId;
        this.ownerJobId = ownerJobId;
    }

    /** The parent aborted: the child counts as cancelled here at once, and the thief is told to stop. */
    @Override
    protected void onCancelRequested() {
        if (cancel()) {
            table.abortQueue.add(this);
        }
    }
}
