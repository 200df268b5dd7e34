package org.divvy.stealing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.agent.NetworkProxy;
import org.divvy.scheduling.Job;
import org.divvy.scheduling.RemoteJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.wire.JobType;
import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * The thief side of remote stealing: jobs this node stole and runs for remote owners. It decodes a
 * stolen job and hands it to the scheduler, sends each job's outcome (result, failure or abort) back to
 * its owner when it ends, and cancels jobs on an owner's abort, an owner's death or the end of the
 * computation.
 *
 * <p>Single writer: the network agent thread owns the table, the decoded job and the encoders (every
 * method here runs on it, called by {@link RemoteStealing}), except {@link #cancelAll} once that thread
 * has stopped. Workers reach it only through {@link #endedQueue}, which {@link ForeignJob#onRemoteJobEnded}
 * fills; the counters are read by any thread.
 */
final class ForeignJobs {
    /** Logged under the bridge's name, as before the split, so log configuration stays the same. */
    private static final System.Logger LOG = System.getLogger(RemoteStealing.class.getName());

    /** Foreign jobs that ended here; filled by workers, drained by the agent thread. */
    final ConcurrentLinkedQueue<ForeignJob> endedQueue = new ConcurrentLinkedQueue<>();

    private final Scheduler scheduler;
    private final JobTypeRegistry jobTypes;
    private final Peers peers;

    // Agent thread only.
    private final Int2ObjectHashMap<Long2ObjectHashMap<ForeignJob>> byOwner = new Int2ObjectHashMap<>();
    private final WireWriter resultWriter = new WireWriter(256);
    private final WireReader reader = new WireReader();
    private ForeignJob unsentEnded;
    /** The job and stamp the last successful {@link #decode} produced, for the {@link #adopt} that follows. */
    private Job decodedJob;
    private Stamp decodedStamp;

    // Counters: written by the agent thread only, read by any.
    private volatile long remoteJobsRun;
    private volatile long unknownJobTypes;

    ForeignJobs(final Scheduler scheduler, final JobTypeRegistry jobTypes, final Peers peers) {
        this.scheduler = scheduler;
        this.jobTypes = jobTypes;
        this.peers = peers;
    }

    /** Foreign jobs whose outcome was sent to their owner. */
    long remoteJobsRun() {
        return remoteJobsRun;
    }

    /** Stolen jobs whose type this node does not know. */
    long unknownJobTypes() {
        return unknownJobTypes;
    }

    /** No job held for a remote owner and no outcome waiting to be sent. */
    boolean isEmpty() {
        if (unsentEnded != null || !endedQueue.isEmpty()) {
            return false;
        }
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            if (!byId.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes a stolen job; on success {@link #adopt} takes it next.
     *
     * @return null when decoded, else why it could not be (for the log and the owner).
     */
    String decode(final int victimId, final String jobTypeName, final DirectBuffer buffer, final int stampOffset,
        final int stampLength, final int argumentsOffset, final int argumentsLength) {
        decodedJob = null;
        decodedStamp = null;
        final JobType type = jobTypes.get(jobTypeName);
        if (type == null) {
            unknownJobTypes++;
            return "job type `" + jobTypeName + "` is unknown on node " + peers.selfId() +
                ": every node needs the same application classes (its generated *Jobs provider) on its class path";
        }
        try {
            reader.wrap(buffer, stampOffset, stampLength);
            final Stamp stamp = Stamp.decode(reader);
            reader.wrap(buffer, argumentsOffset, argumentsLength);
            final Job job = type.decode(reader);
            decodedStamp = stamp;
            decodedJob = job;
            return null;
        } catch (final RuntimeException e) {
            return "job `" + jobTypeName + "` from node " + victimId + " could not be decoded on node " +
                peers.selfId() + ": " + e.getMessage();
        }
    }

    /** A stolen job could not be decoded: the owner gets the failure instead of waiting forever. */
    void rejectUndecodable(final NetworkProxy p, final int victimId, final long ownerJobId, final String problem) {
        LOG.log(System.Logger.Level.ERROR, problem);
        p.sendFailure(victimId, ownerJobId, DivvyException.class.getName(), problem, "");
    }

    /**
     * Runs the job the last {@link #decode} produced for its owner; when the computation is already over
     * it is cancelled at once, so it reports aborted.
     */
    void adopt(final int ownerId, final long ownerJobId, final boolean computationOver) {
        final Job job = decodedJob;
        final ForeignJob foreign = new ForeignJob(this, job, ownerId, ownerJobId);
        RemoteJobs.adopt(job, decodedStamp, foreign);
        decodedJob = null;
        decodedStamp = null;
        Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        if (byId == null) {
            byId = new Long2ObjectHashMap<>();
            byOwner.put(ownerId, byId);
        }
        byId.put(ownerJobId, foreign);
        if (computationOver) {
            RemoteJobs.requestCancel(job); // the computation is over: report it aborted
        }
        scheduler.submitRemote(job);
    }

    /** The owner aborted a job this node runs for it. */
    void onAbort(final int ownerId, final long ownerJobId) {
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        final ForeignJob foreign = byId == null ? null : byId.get(ownerJobId);
        if (foreign != null) {
            RemoteJobs.requestCancel(foreign.job); // it stops at its next spawn or sync, then reports ABORTED
        }
    }

    /** Jobs this node runs for a member that died or left are orphans: cancel them. */
    void cancelJobsOwnedBy(final int ownerId) {
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ownerId);
        if (byId != null) {
            for (final ForeignJob foreign : byId.values()) {
                RemoteJobs.requestCancel(foreign.job);
            }
        }
    }

    /** Asks every job this node runs for a remote owner to stop. */
    void cancelAll() {
        for (final Long2ObjectHashMap<ForeignJob> byId : byOwner.values()) {
            for (final ForeignJob foreign : byId.values()) {
                RemoteJobs.requestCancel(foreign.job);
            }
        }
    }

    /** Sends the outcomes of jobs that ended here for remote owners. */
    int sendEnded(final NetworkProxy p) {
        int work = 0;
        for (;;) {
            final ForeignJob ended = unsentEnded != null ? unsentEnded : endedQueue.poll();
            unsentEnded = null;
            if (ended == null) {
                return work;
            }
            if (!peers.isAlive(ended.ownerId)) {
                forget(ended);
                continue; // the owner is gone: nobody waits for this outcome
            }
            if (!sendOutcome(p, ended)) {
                unsentEnded = ended; // the command ring is full: retry next cycle
                return work;
            }
            forget(ended);
            remoteJobsRun++;
            work++;
        }
    }

    private boolean sendOutcome(final NetworkProxy p, final ForeignJob ended) {
        final Job job = ended.job;
        if (RemoteJobs.isDone(job)) {
            resultWriter.reset();
            try {
                RemoteJobs.writeResult(job, resultWriter);
            } catch (final RuntimeException e) {
                return p.sendFailure(ended.ownerId, ended.ownerJobId, e.getClass().getName(),
                    "could not encode the result on node " + peers.selfId() + ": " + e.getMessage(), stackTrace(e));
            }
            try {
                return p.sendResult(ended.ownerId, ended.ownerJobId, resultWriter.buffer(), 0, resultWriter.length());
            } catch (final DivvyException tooLarge) {
                return p.sendFailure(ended.ownerId, ended.ownerJobId, tooLarge.getClass().getName(),
                    "the result of job `" + RemoteJobs.displayName(job) + "` cannot be returned from node " + peers.selfId() +
                        ": " + tooLarge.getMessage(), "");
            }
        }
        if (RemoteJobs.isFailed(job)) {
            final Throwable t = RemoteJobs.failure(job);
            return p.sendFailure(ended.ownerId, ended.ownerJobId, t.getClass().getName(), t.getMessage(), stackTrace(t));
        }
        return p.sendAborted(ended.ownerId, ended.ownerJobId);
    }

    private void forget(final ForeignJob ended) {
        final Long2ObjectHashMap<ForeignJob> byId = byOwner.get(ended.ownerId);
        if (byId != null) {
            byId.remove(ended.ownerJobId);
        }
    }

    static String stackTrace(final Throwable t) {
        final StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
