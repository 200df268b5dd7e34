package org.divvy.stealing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.NodeFailedException;
import org.divvy.RemoteJobException;
import org.divvy.agent.NetworkProxy;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.scheduling.Job;
import org.divvy.scheduling.RemoteJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * The victim side of remote stealing: jobs this node gave to remote thieves (the thesis'
 * {@code outstandingJobs}, §3.2). It answers steal requests from the scheduler's deques, ends each given
 * job with the thief's result, failure or abort notice, forwards aborts of given jobs to their thieves,
 * and fails the jobs held by a member that died or left.
 *
 * <p>Single writer: the network agent thread owns the table and the encoders (every method here runs on
 * it, called by {@link RemoteStealing}). Workers reach it only through {@link #abortQueue}, which
 * {@link OutstandingJob#onCancelRequested} fills; the counters are read by any thread.
 */
final class GivenJobs {
    /** Logged under the bridge's name, as before the split, so log configuration stays the same. */
    private static final System.Logger LOG = System.getLogger(RemoteStealing.class.getName());

    /** Given jobs whose parent aborted them; filled by workers, drained by the agent thread. */
    final ConcurrentLinkedQueue<OutstandingJob> abortQueue = new ConcurrentLinkedQueue<>();

    private final Scheduler scheduler;
    private final Peers peers;

    // Agent thread only.
    private final Long2ObjectHashMap<OutstandingJob> outstanding = new Long2ObjectHashMap<>();
    private final WireWriter stampWriter = new WireWriter(64);
    private final WireWriter argumentsWriter = new WireWriter(256);
    private final WireReader reader = new WireReader();
    private final long[] abortIds = new long[1];
    private OutstandingJob unsentAbort;
    private long nextOwnerJobId = 1;
    private int victimCursor;

    // Counters: written by the agent thread only, read by any.
    private volatile long jobsGiven;
    private volatile long lateResults;

    GivenJobs(final Scheduler scheduler, final Peers peers) {
        this.scheduler = scheduler;
        this.peers = peers;
    }

    long jobsGiven() {
        return jobsGiven;
    }

    /** Results, failures and abort notices for no given job (late after an abort, or duplicate). */
    long lateResults() {
        return lateResults;
    }

    /** No job out on a thief and no abort waiting to be forwarded. */
    boolean isEmpty() {
        return outstanding.isEmpty() && unsentAbort == null && abortQueue.isEmpty();
    }

    /**
     * Gives the thief the first job the scheduler lets go that can be encoded and claimed, or replies
     * that there is none.
     *
     * @return whether a job was given.
     */
    boolean onStealRequest(final NetworkProxy p, final int thiefId, final long requestId) {
        Job job;
        while ((job = scheduler.pollForRemoteThief(victimCursor++)) != null) {
            // Encode before claiming: the arguments of a spawned job never change, and a job that cannot
            // be encoded must stay NEW so it can still run here.
            stampWriter.reset();
            argumentsWriter.reset();
            try {
                job.stamp().encode(stampWriter);
                job.encodeArguments(argumentsWriter);
            } catch (final RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "job `" + RemoteJobs.displayName(job) +
                    "` cannot be encoded for another node, it runs here: " + e);
                scheduler.submitRemote(job);
                continue;
            }
            final long ownerJobId = nextOwnerJobId++;
            final OutstandingJob entry = new OutstandingJob(this, job, thiefId, ownerJobId);
            if (!RemoteJobs.claim(job, entry)) {
                continue; // its parent aborted it meanwhile
            }
            outstanding.put(ownerJobId, entry);
            try {
                if (p.replyJob(thiefId, requestId, ownerJobId, job.type().name(), stampWriter.buffer(), 0,
                    stampWriter.length(), argumentsWriter.buffer(), 0, argumentsWriter.length())) {
                    jobsGiven++;
                    return true;
                }
            } catch (final DivvyException tooLarge) {
                LOG.log(System.Logger.Level.INFO, () -> "job `" + RemoteJobs.displayName(entry.job) +
                    "` stays on this node: " + tooLarge.getMessage());
            }
            outstanding.remove(ownerJobId); // not sent: the job runs here after all
            RemoteJobs.unclaimAndRunLocally(scheduler, job);
        }
        p.replyNone(thiefId, requestId);
        return false;
    }

    void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset,
        final int length) {
        final OutstandingJob entry = take(thiefId, ownerJobId);
        if (entry == null) {
            return;
        }
        Throwable failure = null;
        try {
            reader.wrap(buffer, offset, length);
            RemoteJobs.readResult(entry.job, reader);
        } catch (final RuntimeException e) {
            failure = new DivvyException("the result of job `" + RemoteJobs.displayName(entry.job) + "` from node " + thiefId +
                " could not be decoded: " + e.getMessage(), e);
        }
        if (!RemoteJobs.completeClaimed(entry.job, failure)) {
            lateResults++;
        }
    }

    void onJobFailed(final int thiefId, final long ownerJobId, final String exceptionClassName, final String message,
        final String stackTrace) {
        final OutstandingJob entry = take(thiefId, ownerJobId);
        if (entry == null) {
            return;
        }
        final RemoteJobException failure = new RemoteJobException(RemoteJobs.displayName(entry.job), thiefId,
            exceptionClassName, message, stackTrace);
        if (!RemoteJobs.completeClaimed(entry.job, failure)) {
            lateResults++;
        }
    }

    void onJobAborted(final int thiefId, final long ownerJobId) {
        final OutstandingJob entry = take(thiefId, ownerJobId);
        if (entry != null) {
            RemoteJobs.cancelClaimed(entry.job); // false when our own abort ended it first: the usual case
        }
    }

    private OutstandingJob take(final int thiefId, final long ownerJobId) {
        final OutstandingJob entry = outstanding.get(ownerJobId);
        if (entry == null || entry.thiefId != thiefId) {
            lateResults++; // late (after an abort) or duplicate: ignored
            return null;
        }
        outstanding.remove(ownerJobId);
        return entry;
    }

    /** Forwards aborts of jobs out on thieves (each already counted cancelled here). */
    int sendAborts(final NetworkProxy p) {
        int work = 0;
        for (;;) {
            final OutstandingJob aborted = unsentAbort != null ? unsentAbort : abortQueue.poll();
            unsentAbort = null;
            if (aborted == null) {
                return work;
            }
            outstanding.remove(aborted.ownerJobId);
            if (!peers.isAlive(aborted.thiefId)) {
                continue;
            }
            abortIds[0] = aborted.ownerJobId;
            if (!p.sendAbort(aborted.thiefId, abortIds, 1)) {
                unsentAbort = aborted;
                return work;
            }
            work++;
        }
    }

    /** Jobs stolen from this node by a member that died or left have no result: fail them (no recovery yet). */
    void failJobsHeldBy(final Member member) {
        final List<OutstandingJob> lost = new ArrayList<>();
        for (final OutstandingJob entry : outstanding.values()) {
            if (entry.thiefId == member.id()) {
                lost.add(entry);
            }
        }
        for (final OutstandingJob entry : lost) {
            outstanding.remove(entry.ownerJobId);
            final String how = member.state() == MemberState.LEFT ? "left" : "died";
            final NodeFailedException failure = new NodeFailedException("node " + member.id() + " (site " + member.site() +
                ", " + member.endpoint() + ") " + how + " while running job " + entry.job.stamp() + " (`" +
                RemoteJobs.displayName(entry.job) + "`) stolen from this node; recovering lost work arrives with fault tolerance",
                member.id());
            RemoteJobs.completeClaimed(entry.job, failure);
        }
    }
}
