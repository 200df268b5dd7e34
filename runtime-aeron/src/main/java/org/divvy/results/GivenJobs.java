package org.divvy.results;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.agent.CodecThread;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.codegen.Job;
import org.divvy.codegen.WireReader;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.scheduling.Scheduler;
import org.divvy.transport.FrameHandler;

/**
 * The owner side of results and aborts: jobs this node gave to remote thieves (the thesis'
 * {@code outstandingJobs}, §3.2). Stealing {@link #claim claims} a job for a thief; the thief's JOB_RESULT
 * (a value, a failure or an abort notice) ends it and notifies its parent here; an abort of a given job
 * is forwarded to its thief as ABORT (as ORPHAN_PROPAGATION when the job lies in an orphaned subtree); a
 * thief that died or left gives its jobs back: they run here again, marked restarted (thesis §3.3 step 1).
 * A restarted job whose result an orphan holder has is {@link #claimForHolder claimed for that holder} as
 * if it had stolen it: the holder's JOB_RESULT completes it, and its death re-queues it like a thief's.
 *
 * <p>The re-queue waits {@code restartGraceNs} (with orphan saving): the survivors learn of the death when this
 * node does, and need that long to unwind their orphans and announce what finished (combined, thesis §3.3 step
 * 2). A restarted job that ran at once would look its first levels up before those announcements arrive and,
 * missing a finished orphan near the top, recompute the whole subtree under it; a worker waiting for it helps
 * elsewhere meanwhile.
 *
 * <p>A result longer than {@link CodecThread#INLINE_BYTES} is read into its job on the {@link CodecThread}
 * (its frame is its own), and the job completed when the read comes back through {@link #decodedInbox}.
 *
 * <p>Single writer: the network agent thread owns the table (handler, duty, membership events). Workers
 * reach it only through {@link #abortQueue}, which {@link OutstandingJob#onCancelRequested} fills, the
 * codec thread only through {@link #decodedInbox}; the counters are read by any thread.
 */
public final class GivenJobs implements Duty, MembershipListener {
    /** Returned by {@link #claim} when the job was cancelled before it could be claimed. */
    public static final long NOT_CLAIMED = 0;

    /** Given jobs whose parent aborted them; filled by workers, drained by the agent thread. */
    final ConcurrentLinkedQueue<OutstandingJob> abortQueue = new ConcurrentLinkedQueue<>();

    /** A large result read into its job on the codec thread, or why it could not be. */
    private static final class DecodedResult {
        final OutstandingJob entry;
        Throwable failure;

        DecodedResult(final OutstandingJob entry) {
            this.entry = entry;
        }
    }

    /** Large results read on the codec thread; drained by the duty. */
    private final ConcurrentLinkedQueue<DecodedResult> decodedInbox = new ConcurrentLinkedQueue<>();
    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final RemoteExceptions exceptions;
    private final CodecThread codec;
    /** Results handed to the codec thread and not back yet; agent thread only. */
    private int decoding;

    // Agent thread only.
    private final Long2ObjectHashMap<OutstandingJob> outstanding = new Long2ObjectHashMap<>();
    private final JobResultFlyweight jobResult = new JobResultFlyweight();
    private final AbortFlyweight abort = new AbortFlyweight();
    private final WireReader reader = new WireReader();
    private OutstandingJob unsentAbort;
    private long nextOwnerJobId = 1;
    /** Jobs of a dead thief waiting out the grace before they run here again, in order of their due time. */
    private final ArrayDeque<PendingRestart> pendingRestarts = new ArrayDeque<>();
    private final long restartGraceNs;
    private long lastCycleNs;

    /** A job of a dead thief, re-queued restarted at {@code dueNs}. */
    private record PendingRestart(OutstandingJob entry, long dueNs) {
    }

    // Counters: written by the agent thread only, read by any.
    private volatile long jobsGiven;
    private volatile long lateResults;
    private volatile long jobsRestarted;

    /**
     * {@code exceptions} rebuilds a thief's reported failure as its own class where it can; a dead thief's jobs run
     * here again {@code restartGraceNs} after its death is known (0: at once).
     */
    public GivenJobs(final Scheduler scheduler, final Members members, final FrameSender sender, final CodecThread codec,
        final RemoteExceptions exceptions, final long restartGraceNs) {
        this.restartGraceNs = restartGraceNs;
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        this.codec = codec;
        this.exceptions = exceptions;
    }

    /** Registers JOB_RESULT, the message this side receives. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(JobResultFlyweight.TYPE, "JOB_RESULT", new JobResultFlyweight(), JobResultFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onJobResult);
    }

    /** Jobs given to remote thieves since the node started. */
    public long jobsGiven() {
        return jobsGiven;
    }

    /** Results, failures and abort notices for no given job (late after an abort, or duplicate). */
    public long lateResults() {
        return lateResults;
    }

    /** Jobs given to thieves that died or left, put back here to run again (restarted). */
    public long jobsRestarted() {
        return jobsRestarted;
    }

    /** No job out on a thief and no abort waiting to be forwarded. */
    public boolean isEmpty() {
        return outstanding.isEmpty() && unsentAbort == null && abortQueue.isEmpty() && decoding == 0
            && pendingRestarts.isEmpty();
    }

    /**
     * Makes {@code job} (just polled for a remote thief, NEW) RUNNING here on behalf of {@code thiefId}.
     *
     * @return this node's id for the job, which the thief quotes with the outcome, or {@link #NOT_CLAIMED}
     * when an abort cancelled it first (then drop it: the canceller counted it complete).
     */
    public long claim(final Job job, final int thiefId) {
        final long ownerJobId = nextOwnerJobId++;
        final OutstandingJob entry = new OutstandingJob(this, job, thiefId, ownerJobId);
        if (!entry.claim()) {
            return NOT_CLAIMED;
        }
        outstanding.put(ownerJobId, entry);
        return ownerJobId;
    }

    /** The claimed job went out to its thief (counted). */
    public void onGiven(final long ownerJobId) {
        final OutstandingJob entry = outstanding.get(ownerJobId);
        if (entry != null) {
            entry.sent = true;
        }
        jobsGiven++;
    }

    /**
     * Claims a restarted job (NEW, taken by a worker) for the orphan holder {@code holderId}, which is asked
     * for its result: it then waits like a job out on a thief. {@link #NOT_CLAIMED} when an abort cancelled it.
     */
    public long claimForHolder(final Job job, final int holderId) {
        return claim(job, holderId);
    }

    /** The RESULT_REQUEST for the job claimed as {@code ownerJobId} went out (not counted as given). */
    public void onRequested(final long ownerJobId) {
        final OutstandingJob entry = outstanding.get(ownerJobId);
        if (entry != null) {
            entry.sent = true;
        }
    }

    /** Whether the job claimed as {@code ownerJobId} still waits for its reply to be sent (not aborted, thief alive). */
    public boolean isAwaitingSend(final long ownerJobId) {
        final OutstandingJob entry = outstanding.get(ownerJobId);
        return entry != null && !entry.sent;
    }

    /** The claimed job could not be sent: it runs here after all (unless something ended it meanwhile). */
    public void unclaim(final long ownerJobId) {
        final OutstandingJob entry = outstanding.remove(ownerJobId);
        if (entry != null) {
            entry.unclaimAndRunLocally(scheduler);
        }
    }

    private int onJobResult(final int thiefId, final DirectBuffer buffer, final int offset, final int length) {
        jobResult.wrap(buffer, offset, length);
        final OutstandingJob entry = take(thiefId, jobResult.ownerJobId());
        if (entry == null) {
            return 1;
        }
        switch (jobResult.outcome()) {
            case JobResultFlyweight.OUTCOME_VALUE -> {
                if (length > FrameHandler.OWN_BUFFER_MIN_BYTES) {
                    readLarge(entry, buffer, offset + jobResult.resultOffset(), jobResult.resultLength(), thiefId);
                    return 1;
                }
                Throwable failure = null;
                try {
                    reader.wrap(buffer, offset + jobResult.resultOffset(), jobResult.resultLength());
                    entry.job.readResult(reader);
                } catch (final RuntimeException e) {
                    failure = new DivvyException("the result of job `" + entry.displayName() + "` from node " +
                        thiefId + " could not be decoded: " + e.getMessage(), e);
                }
                complete(entry, failure);
            }
            case JobResultFlyweight.OUTCOME_EXCEPTION -> complete(entry, exceptions.rebuildException(
                entry.displayName(), thiefId, jobResult.exceptionClassName(), jobResult.exceptionMessage(),
                jobResult.exceptionStackTrace()));
            case JobResultFlyweight.OUTCOME_NOT_HELD -> entry.unclaimAndRunLocally(scheduler); // computed here after all
            default -> entry.cancel(); // false when our own abort ended it first: the usual case
        }
        return 1;
    }

    /** Reads a large result into its job on the codec thread ({@code buffer} is the frame's own); the duty completes it. */
    private void readLarge(final OutstandingJob entry, final DirectBuffer buffer, final int offset, final int length,
        final int thiefId) {
        final DecodedResult decoded = new DecodedResult(entry);
        decoding++;
        OffHeapFrame.retainIfOffHeap(buffer); // kept until the codec thread read it
        codec.submit(() -> {
            try {
                entry.job.readResult(new WireReader().wrap(buffer, offset, length));
            } catch (final Throwable e) { // OutOfMemoryError included: the owner's sync() reports it
                decoded.failure = new DivvyException("the result of job `" + entry.displayName() + "` from node " +
                    thiefId + " could not be decoded: " + e, e);
            } finally {
                OffHeapFrame.releaseIfOffHeap(buffer);
            }
            decodedInbox.add(decoded);
        }, () -> OffHeapFrame.releaseIfOffHeap(buffer)); // dropped (the node closes): the frame is given back all the same
    }

    private void complete(final OutstandingJob entry, final Throwable failure) {
        if (!entry.complete(failure)) {
            lateResults++;
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

    /** Completes jobs whose large results were read on the codec thread; forwards aborts of jobs out on thieves. */
    @Override
    public int doWork(final long nowNs) {
        lastCycleNs = nowNs;
        int work = 0;
        PendingRestart due;
        while ((due = pendingRestarts.peek()) != null && nowNs - due.dueNs() >= 0) {
            pendingRestarts.poll();
            if (due.entry().requeueRestarted(scheduler)) { // false if an abort ended it meanwhile
                jobsRestarted++;
            }
            work++;
        }
        DecodedResult decoded;
        while ((decoded = decodedInbox.poll()) != null) {
            decoding--;
            complete(decoded.entry, decoded.failure);
            work++;
        }
        for (;;) {
            final OutstandingJob aborted = unsentAbort != null ? unsentAbort : abortQueue.poll();
            unsentAbort = null;
            if (aborted == null) {
                return work;
            }
            outstanding.remove(aborted.ownerJobId);
            if (!aborted.sent || !members.isAlive(aborted.thiefId)) {
                continue; // a reply still being encoded is never sent; a dead thief needs no ABORT
            }
            final MutableDirectBuffer frame = sender.frameBuffer(AbortFlyweight.frameLengthFor(1));
            abort.wrap(frame, 0, frame.capacity());
            // part of an orphaned subtree: the thief keeps what its part finished (thesis §3.3 step 3)
            abort.headerDefaults(aborted.isInOrphanedSubtree() ? AbortFlyweight.ORPHAN_PROPAGATION_TYPE : AbortFlyweight.TYPE);
            abort.count(1).jobId(0, aborted.ownerJobId);
            if (!sender.sendTo(aborted.thiefId, abort.frameLength())) {
                unsentAbort = aborted; // its queue is full: again next cycle
                return work;
            }
            work++;
        }
    }

    /**
     * Jobs stolen from this node by a member that died or left (or whose results it was asked for) run
     * here again, marked restarted, so their descendants are looked up in the orphan table; a job the
     * user aborted was removed when the abort went out, and one a result or abort ended meanwhile stays
     * ended (the re-queue is a CAS from RUNNING).
     */
    @Override
    public void onMemberChanged(final Member member) {
        if (member.isAlive() || member.id() == members.selfId()) {
            return;
        }
        final List<OutstandingJob> lost = new ArrayList<>();
        for (final OutstandingJob entry : outstanding.values()) {
            if (entry.thiefId == member.id()) {
                lost.add(entry);
            }
        }
        for (final OutstandingJob entry : lost) {
            outstanding.remove(entry.ownerJobId);
            if (!entry.sent) {
                entry.unclaimAndRunLocally(scheduler); // its reply was still being encoded: nothing was lost
            } else if (restartGraceNs > 0) {
                pendingRestarts.add(new PendingRestart(entry, lastCycleNs + restartGraceNs)); // due times only grow
            } else if (entry.requeueRestarted(scheduler)) {
                jobsRestarted++;
            }
        }
    }
}
