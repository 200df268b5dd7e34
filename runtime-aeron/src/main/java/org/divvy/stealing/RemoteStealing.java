package org.divvy.stealing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.NetworkStatistics;
import org.divvy.NodeFailedException;
import org.divvy.RemoteJobException;
import org.divvy.StealPolicy;
import org.divvy.agent.NetworkAgent;
import org.divvy.agent.NetworkProxy;
import org.divvy.agent.NetworkService;
import org.divvy.agent.RemoteWorkListener;
import org.divvy.membership.Member;
import org.divvy.protocol.MessageType;
import org.divvy.scheduling.Job;
import org.divvy.scheduling.RemoteJobs;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.transport.TrafficCounters;
import org.divvy.wire.JobType;
import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * The bridge between one node's scheduler and its network agent: remote stealing (thief and victim
 * side), results back to owners, aborts, dead members, termination. Runs on the agent thread (it is
 * the agent's {@link RemoteWorkListener}, and {@link #onDutyCycle} is its timer), so its tables have a
 * single writer; workers reach it only through two queues (jobs that ended here for remote owners,
 * jobs out on thieves that were aborted), and application threads only through {@link NodeLifecycle}.
 *
 * <p>When stealing happens: only when the scheduler reports every worker out of work (local stealing
 * failed everywhere) and nothing waits in its inbox; then the {@link StealStrategy} decides whom to ask
 * and paces failures. A busy node sends no steal requests.
 */
public final class RemoteStealing implements RemoteWorkListener {
    /** Longest pause between failed steals while awake, in ms (see {@link StealStrategy#DEFAULT_BACKOFF_MAX_NS}). */
    public static final long BACKOFF_MAX_MS = TimeUnit.NANOSECONDS.toMillis(StealStrategy.DEFAULT_BACKOFF_MAX_NS);
    /** Longest pause between failed steals in deep idle by default, in ms (see {@link StealStrategy#DEFAULT_DEEP_IDLE_BACKOFF_MAX_NS}). */
    public static final long DEFAULT_DEEP_IDLE_BACKOFF_MAX_MS = TimeUnit.NANOSECONDS.toMillis(StealStrategy.DEFAULT_DEEP_IDLE_BACKOFF_MAX_NS);

    private static final System.Logger LOG = System.getLogger(RemoteStealing.class.getName());

    final ConcurrentLinkedQueue<ForeignJob> endedQueue = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<OutstandingJob> abortQueue = new ConcurrentLinkedQueue<>();

    private final Scheduler scheduler;
    private final JobTypeRegistry jobTypes;
    private final StealStrategy strategy;
    private final Peers peers;
    private final NodeLifecycle lifecycle = new NodeLifecycle();
    private final StealSender sender = this::sendStealRequest;

    // Agent thread only.
    private final Long2ObjectHashMap<OutstandingJob> outstanding = new Long2ObjectHashMap<>();
    private final Int2ObjectHashMap<Long2ObjectHashMap<ForeignJob>> foreignByOwner = new Int2ObjectHashMap<>();
    private final WireWriter stampWriter = new WireWriter(64);
    private final WireWriter argumentsWriter = new WireWriter(256);
    private final WireWriter resultWriter = new WireWriter(256);
    private final WireReader reader = new WireReader();
    private final long[] abortIds = new long[1];
    private ForeignJob unsentEnded;
    private OutstandingJob unsentAbort;
    private long nextOwnerJobId = 1;
    private int victimCursor;
    private long nowNs = System.nanoTime();
    private boolean terminateSent;
    /** Something a computation needs happened since the last {@link #isQuiet()} (agent thread only). */
    private boolean activity = true;

    /** Set once the service is started: the agent thread's proxy and the agent (for counters). */
    private volatile NetworkProxy proxy;
    private volatile NetworkAgent agent;
    private volatile boolean stealing = true;
    /** An application thread asked for a RUN_STARTED broadcast; the agent thread sends it and clears this. */
    private final AtomicBoolean runStartPending = new AtomicBoolean();

    // Counters: written by the agent thread only, read by any.
    private volatile long siteStealAttempts;
    private volatile long siteSteals;
    private volatile long wideAreaStealAttempts;
    private volatile long wideAreaSteals;
    private volatile long jobsGiven;
    private volatile long remoteJobsRun;
    private volatile long lateReplies;
    private volatile long lateResults;
    private volatile long unknownJobTypes;
    private volatile long runStartsReceived;

    public RemoteStealing(final Scheduler scheduler, final JobTypeRegistry jobTypes, final String site,
        final StealPolicy policy, final long seed) {
        this(scheduler, jobTypes, site, StealStrategy.of(policy, new Random(seed)));
    }

    /**
     * As above, with the longest pause between failed steals while the node is in deep idle
     * ({@code >= } 20 ms, the cap while awake).
     */
    public RemoteStealing(final Scheduler scheduler, final JobTypeRegistry jobTypes, final String site,
        final StealPolicy policy, final long seed, final long deepIdleBackoffMaxNs) {
        this(scheduler, jobTypes, site, StealStrategy.of(policy, new Random(seed), deepIdleBackoffMaxNs));
    }

    RemoteStealing(final Scheduler scheduler, final JobTypeRegistry jobTypes, final String site, final StealStrategy strategy) {
        this.scheduler = scheduler;
        this.jobTypes = jobTypes;
        this.strategy = strategy;
        this.peers = new Peers(site);
    }

    /** Connects to the started service: from now on the bridge sends. Call once, right after start. */
    public void attach(final NetworkService service) {
        agent = service.agent();
        proxy = service.newAgentThreadProxy();
    }

    /** Join, members and termination as application threads see them. */
    public NodeLifecycle lifecycle() {
        return lifecycle;
    }

    /**
     * A run starts on this node (any thread): the agent thread broadcasts RUN_STARTED in its next duty
     * cycle, so deep-idle peers wake and steal at once. Pair with {@link NetworkService#wakeAgent()}.
     */
    public void requestRunStartedBroadcast() {
        runStartPending.set(true);
    }

    /** Stops asking peers for work (the node is closing); steal requests from peers are still answered. */
    public void stopStealing() {
        stealing = false;
    }

    /**
     * Asks every job this node runs for a remote owner to stop. Only once the agent thread has stopped
     * (its tables are then safe to read here): a node whose network is gone cannot deliver their results.
     */
    public void cancelForeignJobsAfterAgentStopped() {
        cancelAllForeign();
    }

    private void cancelAllForeign() {
        for (final Long2ObjectHashMap<ForeignJob> byId : foreignByOwner.values()) {
            for (final ForeignJob foreign : byId.values()) {
                RemoteJobs.requestCancel(foreign.job);
            }
        }
    }

    /** A snapshot of this node's network counters since it started. */
    public NetworkStatistics statistics() {
        final long[] messages = new long[MessageType.MAX_TYPE + 1];
        final long[] bytes = new long[MessageType.MAX_TYPE + 1];
        final NetworkAgent a = agent;
        if (a != null) {
            final TrafficCounters traffic = a.traffic();
            for (int type = 1; type <= MessageType.MAX_TYPE; type++) {
                messages[type] = traffic.messagesSent(type);
                bytes[type] = traffic.bytesSent(type);
            }
        }
        return new NetworkStatistics(siteStealAttempts, siteSteals, wideAreaStealAttempts, wideAreaSteals, jobsGiven,
            remoteJobsRun, messages, bytes);
    }

    /** Replies that came for no outstanding request, and results for no outstanding job (late or duplicate). */
    public long lateReplies() {
        return lateReplies + lateResults;
    }

    /** RUN_STARTED messages received from peers (each woke this node and reset its steal backoff). */
    public long runStartsReceived() {
        return runStartsReceived;
    }

    /** Stolen jobs whose type this node does not know. */
    public long unknownJobTypes() {
        return unknownJobTypes;
    }

    // ---------------------------------------------------------------------------------------------
    // The duty cycle: outcomes to send, aborts to forward, steals to make.
    // ---------------------------------------------------------------------------------------------

    @Override
    public int onDutyCycle(final long nowNs) {
        this.nowNs = nowNs;
        final NetworkProxy p = proxy;
        if (p == null) {
            return 0;
        }
        strategy.deepIdle(agent.isDeepIdle(), nowNs);
        int work = sendEnded(p) + sendAborts(p) + strategy.expire(nowNs);
        if (runStartPending.getAndSet(false)) {
            if (p.broadcastRunStarted()) {
                activity = true; // this node's run is starting: it leaves deep idle too
                work++;
            } else {
                runStartPending.set(true);
            }
        }
        final int terminateCode = lifecycle.terminateRequest();
        if (terminateCode != NodeLifecycle.NO_CODE && !terminateSent) {
            if (p.broadcastTerminate(terminateCode)) {
                terminateSent = true;
                work++;
            }
        } else if (terminateSent && !lifecycle.isTerminateFlushed() && agent.isOutboundIdle()) {
            lifecycle.onTerminateFlushed();
        }
        if (stealing && lifecycle.isJoined() && scheduler.isOutOfWork() && lifecycle.terminationCodeOrNone() == NodeLifecycle.NO_CODE) {
            work += strategy.onIdle(nowNs, peers, sender);
        }
        return work;
    }

    /**
     * Quiet: joined, no local work, no job out on a thief or held for a remote owner, nothing queued to
     * send, and nothing received since the last call. Failed steals (either way) do not break the quiet.
     */
    @Override
    public boolean isQuiet() {
        final boolean quiet = !activity && lifecycle.isJoined() && scheduler.isOutOfWork() && outstanding.isEmpty() &&
            unsentEnded == null && unsentAbort == null && endedQueue.isEmpty() && abortQueue.isEmpty() && holdsNoForeignJob();
        activity = false;
        return quiet;
    }

    private boolean holdsNoForeignJob() {
        for (final Long2ObjectHashMap<ForeignJob> byId : foreignByOwner.values()) {
            if (!byId.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private boolean sendStealRequest(final int victimId, final long requestId, final boolean wideArea) {
        if (!proxy.requestSteal(victimId, requestId, wideArea)) {
            return false;
        }
        if (peers.inOwnSite(victimId)) {
            siteStealAttempts++;
        } else {
            wideAreaStealAttempts++;
        }
        return true;
    }

    /** Sends the outcomes of jobs that ended here for remote owners. */
    private int sendEnded(final NetworkProxy p) {
        int work = 0;
        for (;;) {
            final ForeignJob ended = unsentEnded != null ? unsentEnded : endedQueue.poll();
            unsentEnded = null;
            if (ended == null) {
                return work;
            }
            if (!peers.isAlive(ended.ownerId)) {
                forgetForeign(ended);
                continue; // the owner is gone: nobody waits for this outcome
            }
            if (!sendOutcome(p, ended)) {
                unsentEnded = ended; // the command ring is full: retry next cycle
                return work;
            }
            forgetForeign(ended);
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

    private void forgetForeign(final ForeignJob ended) {
        final Long2ObjectHashMap<ForeignJob> byId = foreignByOwner.get(ended.ownerId);
        if (byId != null) {
            byId.remove(ended.ownerJobId);
        }
    }

    /** Forwards aborts of jobs out on thieves (each already counted cancelled here). */
    private int sendAborts(final NetworkProxy p) {
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

    // ---------------------------------------------------------------------------------------------
    // Victim side.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onStealRequest(final int thiefId, final long requestId, final boolean wideArea) {
        final NetworkProxy p = proxy;
        if (p == null) {
            return; // not attached yet: the thief's request times out
        }
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
                    activity = true;
                    return;
                }
            } catch (final DivvyException tooLarge) {
                LOG.log(System.Logger.Level.INFO, () -> "job `" + RemoteJobs.displayName(entry.job) +
                    "` stays on this node: " + tooLarge.getMessage());
            }
            outstanding.remove(ownerJobId); // not sent: the job runs here after all
            RemoteJobs.unclaimAndRunLocally(scheduler, job);
        }
        p.replyNone(thiefId, requestId);
    }

    @Override
    public void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset,
        final int length) {
        final OutstandingJob entry = takeOutstanding(thiefId, ownerJobId);
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

    @Override
    public void onJobFailed(final int thiefId, final long ownerJobId, final String exceptionClassName, final String message,
        final String stackTrace) {
        final OutstandingJob entry = takeOutstanding(thiefId, ownerJobId);
        if (entry == null) {
            return;
        }
        final RemoteJobException failure = new RemoteJobException(RemoteJobs.displayName(entry.job), thiefId,
            exceptionClassName, message, stackTrace);
        if (!RemoteJobs.completeClaimed(entry.job, failure)) {
            lateResults++;
        }
    }

    @Override
    public void onJobAborted(final int thiefId, final long ownerJobId) {
        final OutstandingJob entry = takeOutstanding(thiefId, ownerJobId);
        if (entry != null) {
            RemoteJobs.cancelClaimed(entry.job); // false when our own abort ended it first: the usual case
        }
    }

    private OutstandingJob takeOutstanding(final int thiefId, final long ownerJobId) {
        activity = true;
        final OutstandingJob entry = outstanding.get(ownerJobId);
        if (entry == null || entry.thiefId != thiefId) {
            lateResults++; // late (after an abort) or duplicate: ignored
            return null;
        }
        outstanding.remove(ownerJobId);
        return entry;
    }

    // ---------------------------------------------------------------------------------------------
    // Thief side.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onStealFailed(final int victimId, final long requestId) {
        if (strategy.onReply(requestId, false, nowNs) == RequestKind.LATE) {
            lateReplies++;
        }
    }

    @Override
    public void onStolenJob(final int victimId, final long requestId, final long ownerJobId, final String jobTypeName,
        final DirectBuffer buffer, final int stampOffset, final int stampLength, final int argumentsOffset,
        final int argumentsLength) {
        final JobType type = jobTypes.get(jobTypeName);
        Job job = null;
        Stamp stamp = null;
        String problem = null;
        if (type == null) {
            unknownJobTypes++;
            problem = "job type `" + jobTypeName + "` is unknown on node " + peers.selfId() +
                ": every node needs the same application classes (its generated *Jobs provider) on its class path";
        } else {
            try {
                reader.wrap(buffer, stampOffset, stampLength);
                stamp = Stamp.decode(reader);
                reader.wrap(buffer, argumentsOffset, argumentsLength);
                job = type.decode(reader);
            } catch (final RuntimeException e) {
                problem = "job `" + jobTypeName + "` from node " + victimId + " could not be decoded on node " +
                    peers.selfId() + ": " + e.getMessage();
            }
        }
        if (problem != null) {
            // Counted as a failed steal; the owner gets the failure instead of waiting forever.
            onStealFailed(victimId, requestId);
            LOG.log(System.Logger.Level.ERROR, problem);
            proxy.sendFailure(victimId, ownerJobId, DivvyException.class.getName(), problem, "");
            return;
        }
        activity = true;
        final RequestKind kind = strategy.onReply(requestId, true, nowNs);
        if (kind == RequestKind.LATE) {
            lateReplies++; // its job is queued all the same: never drop work
        }
        if (peers.inOwnSite(victimId)) {
            siteSteals++;
        } else {
            wideAreaSteals++;
        }
        final ForeignJob foreign = new ForeignJob(this, job, victimId, ownerJobId);
        RemoteJobs.adopt(job, stamp, foreign);
        Long2ObjectHashMap<ForeignJob> byId = foreignByOwner.get(victimId);
        if (byId == null) {
            byId = new Long2ObjectHashMap<>();
            foreignByOwner.put(victimId, byId);
        }
        byId.put(ownerJobId, foreign);
        if (lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE) {
            RemoteJobs.requestCancel(job); // the computation is over: report it aborted
        }
        scheduler.submitRemote(job);
    }

    @Override
    public void onAbort(final int senderId, final long ownerJobId) {
        final Long2ObjectHashMap<ForeignJob> byId = foreignByOwner.get(senderId);
        final ForeignJob foreign = byId == null ? null : byId.get(ownerJobId);
        activity = true;
        if (foreign != null) {
            RemoteJobs.requestCancel(foreign.job); // it stops at its next spawn or sync, then reports ABORTED
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Membership and lifecycle.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onJoined(final int selfId) {
        peers.selfId(selfId);
        lifecycle.onJoined(selfId);
    }

    @Override
    public void onJoinFailed(final String message) {
        lifecycle.onJoinFailed(message);
    }

    @Override
    public void onMembershipChange(final Member member) {
        activity = true; // a joining node may be the start of a run
        peers.update(member);
        lifecycle.onMembers(peers.aliveCount());
        if (member.isAlive() || member.id() == peers.selfId()) {
            return;
        }
        strategy.onVictimLost(member.id(), nowNs);
        failJobsHeldBy(member);
        cancelJobsOwnedBy(member.id());
    }

    /** Jobs stolen from this node by a member that died or left have no result: fail them (no recovery yet). */
    private void failJobsHeldBy(final Member member) {
        final List<OutstandingJob> lost = new ArrayList<>();
        for (final OutstandingJob entry : outstanding.values()) {
            if (entry.thiefId == member.id()) {
                lost.add(entry);
            }
        }
        for (final OutstandingJob entry : lost) {
            outstanding.remove(entry.ownerJobId);
            final String how = member.state() == org.divvy.membership.MemberState.LEFT ? "left" : "died";
            final NodeFailedException failure = new NodeFailedException("node " + member.id() + " (site " + member.site() +
                ", " + member.endpoint() + ") " + how + " while running job " + entry.job.stamp() + " (`" +
                RemoteJobs.displayName(entry.job) + "`) stolen from this node; recovering lost work arrives with fault tolerance",
                member.id());
            RemoteJobs.completeClaimed(entry.job, failure);
        }
    }

    /** Jobs this node runs for a member that died or left are orphans: cancel them. */
    private void cancelJobsOwnedBy(final int ownerId) {
        final Long2ObjectHashMap<ForeignJob> byId = foreignByOwner.get(ownerId);
        if (byId != null) {
            for (final ForeignJob foreign : byId.values()) {
                RemoteJobs.requestCancel(foreign.job);
            }
        }
    }

    @Override
    public void onRegistryLost(final String message) {
        lifecycle.onLost(message);
        cancelAllForeign();
    }

    @Override
    public void onTerminate(final int senderId, final int exitCode) {
        activity = true;
        lifecycle.onTerminated(exitCode);
        cancelAllForeign();
    }

    /**
     * A peer started a run: ends deep idle at once (activity, seen by the agent after this cycle) and
     * lets the next steal go now, not after a deep-idle pause of up to the deep backoff cap.
     */
    @Override
    public void onRunStarted(final int senderId) {
        activity = true;
        runStartsReceived++;
        strategy.wake(nowNs);
    }

    @Override
    public void onUndeliverable(final int peerId, final int messageType, final int count) {
        if (messageType == MessageType.STEAL_REQUEST) {
            strategy.onVictimLost(peerId, nowNs);
        }
        LOG.log(System.Logger.Level.DEBUG, () -> count + " " + MessageType.name(messageType) + " message(s) to node " + peerId +
            " not delivered");
    }

    static String stackTrace(final Throwable t) {
        final StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    /** For messages: a duration in seconds or milliseconds. */
    static String formatDuration(final long ns) {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
