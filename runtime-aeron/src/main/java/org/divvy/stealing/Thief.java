package org.divvy.stealing;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.divvy.agent.CodecThread;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.bulk.OffHeapFrame;
import org.divvy.codegen.Job;
import org.divvy.codegen.JobType;
import org.divvy.codegen.SharedObjectContext;
import org.divvy.codegen.WireReader;
import org.divvy.lifecycle.NodeLifecycle;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.recovery.Orphans;
import org.divvy.results.ForeignJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.transport.FrameHandler;

/**
 * The thief side of remote stealing. Its duty asks peers for work, as the {@link StealStrategy} decides,
 * only while the scheduler reports every worker out of work (local steals failed everywhere) and nothing
 * waits in its inbox: a busy node sends no steal requests. Nor does a node that knows of no run (no
 * RUN_STARTED or RUN_RESUMED of a live master that did not end, no run of its own, no job held for another
 * node): between runs no node has work to give, and every request to a new victim makes the media driver a
 * new publication to keep (idle nodes stealing from random members built most of a 64-node mesh before any
 * run, perf/README "64 replicas"). Stealing between a node's own workers is the scheduler's and goes on. A STEAL_REPLY with a job is decoded and
 * handed to {@link ForeignJobs} to run for its owner; one that cannot be decoded counts as a failed steal,
 * and the owner gets the failure instead of waiting forever. A reply longer than {@link CodecThread#INLINE_BYTES}
 * is decoded on the {@link CodecThread} (its frame is its own): the steal counts when it arrives, the job is
 * {@link ForeignJobs#expect expected} meanwhile and adopted when the decode comes back through
 * {@link #decodedInbox}.
 *
 * <p>Its duty is housekeeping (failed steals do not keep a node out of deep idle). Agent thread only,
 * except {@link #stopStealing()} and the counters, which any thread may read.
 */
public final class Thief implements Duty, MembershipListener {
    private final Scheduler scheduler;
    private final Members members;
    private final FrameSender sender;
    private final StealStrategy strategy;
    private final ForeignJobs foreign;
    private final Orphans orphans;
    private final JobTypeRegistry jobTypes;
    private final NodeLifecycle lifecycle;
    private final BooleanSupplier deepIdle;
    private final BooleanSupplier runActive;
    private final NanoClock cycleClock;
    private final StealSender requestSender = this::sendStealRequest;
    private final StealRequestFlyweight request = new StealRequestFlyweight();
    private final StealReplyFlyweight reply = new StealReplyFlyweight();
    private final WireReader reader = new WireReader();
    /** Shared objects in stolen jobs resolve here (the shared-data module); null without it. */
    private SharedObjectContext sharedObjects;
    private final CodecThread codec;
    /** Large jobs decoded on the codec thread; drained by the duty. */
    private final ConcurrentLinkedQueue<DecodedJob> decodedInbox = new ConcurrentLinkedQueue<>();
    private volatile boolean stealing = true;

    /** A large stolen job, decoded on the codec thread, or why it could not be. */
    private static final class DecodedJob {
        final int victimId;
        final long ownerJobId;
        final boolean restarted;
        Job job;
        Stamp stamp;
        String problem;

        DecodedJob(final int victimId, final long ownerJobId, final boolean restarted) {
            this.victimId = victimId;
            this.ownerJobId = ownerJobId;
            this.restarted = restarted;
        }
    }

    // Counters: written by the agent thread only, read by any.
    private volatile long siteStealAttempts;
    private volatile long siteSteals;
    private volatile long wideAreaStealAttempts;
    private volatile long wideAreaSteals;
    private volatile long lateReplies;

    /**
     * @param deepIdle   whether the node is in deep idle now: failed steals then back off further.
     * @param runActive  whether a run this node belongs to is active, as it knows: peers are asked for work only then.
     * @param cycleClock the agent's clock reading of the current cycle.
     */
    public Thief(final Scheduler scheduler, final Members members, final FrameSender sender, final StealStrategy strategy,
        final ForeignJobs foreign, final Orphans orphans, final JobTypeRegistry jobTypes, final NodeLifecycle lifecycle, final BooleanSupplier deepIdle,
        final BooleanSupplier runActive, final NanoClock cycleClock, final CodecThread codec) {
        this.runActive = runActive;
        this.codec = codec;
        this.scheduler = scheduler;
        this.members = members;
        this.sender = sender;
        this.strategy = strategy;
        this.foreign = foreign;
        this.orphans = orphans;
        this.jobTypes = jobTypes;
        this.lifecycle = lifecycle;
        this.deepIdle = deepIdle;
        this.cycleClock = cycleClock;
    }

    /** Registers STEAL_REPLY. */
    /** Lets stolen jobs carry shared objects, resolved to this node's replicas through {@code context}. */
    public void sharedObjects(final SharedObjectContext context) {
        sharedObjects = context;
    }

    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(StealReplyFlyweight.TYPE, "STEAL_REPLY", new StealReplyFlyweight(),
            StealReplyFlyweight.MIN_BODY_LENGTH, Senders.MEMBERS, this::onStealReply);
    }

    /** Stops asking peers for work (the node is closing); steal requests from peers are still answered. Any thread. */
    public void stopStealing() {
        stealing = false;
    }

    /** Work is about to appear on a peer (a run started there): the next steal may go now. */
    public void wake() {
        strategy.wake(cycleClock.nanoTime());
    }

    @Override
    public boolean isHousekeeping() {
        return true;
    }

    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        DecodedJob decoded;
        while ((decoded = decodedInbox.poll()) != null) {
            work++;
            if (decoded.problem != null) {
                foreign.rejectUndecodable(decoded.victimId, decoded.ownerJobId, decoded.problem);
            } else {
                foreign.adopt(decoded.job, decoded.stamp, decoded.restarted, decoded.victimId, decoded.ownerJobId,
                    ForeignJobs.LARGE_ARGUMENTS, lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE);
            }
        }
        strategy.deepIdle(deepIdle.getAsBoolean(), nowNs);
        work += strategy.expire(nowNs);
        if (stealing && lifecycle.isJoined() && scheduler.isOutOfWork() &&
            lifecycle.terminationCodeOrNone() == NodeLifecycle.NO_CODE && runActive.getAsBoolean()) {
            work += strategy.onIdle(nowNs, members, requestSender);
        }
        return work;
    }

    private boolean sendStealRequest(final int victimId, final long requestId, final boolean wideArea) {
        final MutableDirectBuffer frame = sender.frameBuffer(StealRequestFlyweight.FRAME_LENGTH);
        request.wrap(frame, 0, StealRequestFlyweight.FRAME_LENGTH);
        request.headerDefaults(StealRequestFlyweight.TYPE);
        request.requestId(requestId).wideArea(wideArea).wantsOrphanTable(!orphans.hasTable());
        if (!sender.sendTo(victimId, StealRequestFlyweight.FRAME_LENGTH)) {
            return false;
        }
        if (members.inOwnSite(victimId)) {
            siteStealAttempts++;
        } else {
            wideAreaStealAttempts++;
        }
        return true;
    }

    /** @return 1 when a job came (work for the computation), 0 for "none". */
    private int onStealReply(final int victimId, final DirectBuffer buffer, final int offset, final int length) {
        reply.wrap(buffer, offset, length);
        final long nowNs = cycleClock.nanoTime();
        if (!reply.hasJob()) {
            onFailedSteal(reply.requestId(), nowNs);
            return 0;
        }
        final String jobTypeName = reply.jobTypeName();
        final JobType type = jobTypes.get(jobTypeName);
        String problem = null;
        Job job = null;
        Stamp stamp = null;
        if (type == null) {
            problem = "job type `" + jobTypeName + "` is unknown on node " + members.selfId() +
                ": every node needs the same application classes (its generated *Jobs provider) on its class path";
        } else if (length > FrameHandler.OWN_BUFFER_MIN_BYTES) {
            decodeLarge(type, victimId, buffer, offset, nowNs);
            return 1;
        } else {
            try {
                reader.wrap(buffer, offset + reply.stampOffset(), reply.stampLength());
                stamp = StampCodec.decode(reader);
                reader.wrap(buffer, offset + reply.argumentsOffset(), reply.argumentsLength()).sharedObjects(sharedObjects, victimId);
                job = type.decode(reader);
            } catch (final RuntimeException e) {
                problem = "job `" + jobTypeName + "` from node " + victimId + " could not be decoded on node " +
                    members.selfId() + ": " + e.getMessage();
            }
        }
        if (problem != null) {
            // Counted as a failed steal; the owner gets the failure instead of waiting forever.
            onFailedSteal(reply.requestId(), nowNs);
            foreign.rejectUndecodable(victimId, reply.ownerJobId(), problem);
            return 0;
        }
        onStolen(reply.requestId(), victimId, nowNs);
        foreign.adopt(job, stamp, reply.restarted(), victimId, reply.ownerJobId(), reply.argumentsLength(),
            lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE);
        return 1;
    }

    /**
     * A large job (its frame is its own): the steal counts now, the job is expected by {@link ForeignJobs}
     * and decoded on the codec thread; the duty adopts it, or returns the failure to its owner.
     */
    private void decodeLarge(final JobType type, final int victimId, final DirectBuffer buffer, final int offset,
        final long nowNs) {
        final long ownerJobId = reply.ownerJobId();
        final int stampAt = offset + reply.stampOffset();
        final int stampLength = reply.stampLength();
        final int argumentsAt = offset + reply.argumentsOffset();
        final int argumentsLength = reply.argumentsLength();
        onStolen(reply.requestId(), victimId, nowNs);
        foreign.expect(victimId, ownerJobId);
        final DecodedJob decoded = new DecodedJob(victimId, ownerJobId, reply.restarted());
        final int selfId = members.selfId();
        final SharedObjectContext context = sharedObjects;
        OffHeapFrame.retainIfOffHeap(buffer); // kept until the codec thread decoded it
        codec.submit(() -> {
            try {
                final WireReader r = new WireReader().sharedObjects(context, victimId).wrap(buffer, stampAt, stampLength);
                decoded.stamp = StampCodec.decode(r);
                r.wrap(buffer, argumentsAt, argumentsLength);
                decoded.job = type.decode(r);
            } catch (final Throwable e) { // OutOfMemoryError included: the owner's sync() reports it
                decoded.problem = "job `" + type.name() + "` from node " + victimId + " could not be decoded on node " +
                    selfId + ": " + e;
            } finally {
                OffHeapFrame.releaseIfOffHeap(buffer);
            }
            decodedInbox.add(decoded);
        }, () -> OffHeapFrame.releaseIfOffHeap(buffer)); // dropped (the node closes): the frame is given back all the same
    }

    private void onStolen(final long requestId, final int victimId, final long nowNs) {
        if (strategy.onReply(requestId, true, nowNs) == RequestKind.LATE) {
            lateReplies++; // its job is queued all the same: never drop work
        }
        if (members.inOwnSite(victimId)) {
            siteSteals++;
        } else {
            wideAreaSteals++;
        }
    }

    private void onFailedSteal(final long requestId, final long nowNs) {
        if (strategy.onReply(requestId, false, nowNs) == RequestKind.LATE) {
            lateReplies++;
        }
    }

    /** A victim that died or left will not answer: its outstanding requests failed. */
    @Override
    public void onMemberChanged(final Member member) {
        if (!member.isAlive() && member.id() != members.selfId()) {
            strategy.onVictimLost(member.id(), cycleClock.nanoTime());
        }
    }

    public long siteStealAttempts() {
        return siteStealAttempts;
    }

    public long siteSteals() {
        return siteSteals;
    }

    public long wideAreaStealAttempts() {
        return wideAreaStealAttempts;
    }

    public long wideAreaSteals() {
        return wideAreaSteals;
    }

    /** Replies that came for no outstanding request (after it timed out or its victim was lost). */
    public long lateReplies() {
        return lateReplies;
    }
}
