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

    ForeignJob(final ForeignJobs table, final Job job, final int ownerId, final long ownerJobId) {
        super(job);
        this.table = table;
        this.job = job;
        this.ownerId = ownerId;
        this.ownerJobId = ownerJobId;
    }

    @Override
    protected void onEnded() {
        table.endedQueue.add(this);
    }
}
