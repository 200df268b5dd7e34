package org.divvy.stealing;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.DirectBuffer;
import org.divvy.NetworkStatistics;
import org.divvy.StealPolicy;
import org.divvy.agent.NetworkAgent;
import org.divvy.agent.NetworkProxy;
import org.divvy.agent.NetworkService;
import org.divvy.agent.RemoteWorkListener;
import org.divvy.membership.Member;
import org.divvy.protocol.MessageType;
import org.divvy.scheduling.Scheduler;
import org.divvy.transport.TrafficCounters;

/**
 * The bridge between one node's scheduler and its network agent: remote stealing (thief and victim
 * side), results back to owners, aborts, dead members, termination. Runs on the agent thread (it is
 * the agent's {@link RemoteWorkListener}, and {@link #onDutyCycle} is its timer), so it and the two
 * tables it owns have a single writer: {@link GivenJobs} (the victim side: jobs given to remote thieves)
 * and {@link ForeignJobs} (the thief side: jobs run here for remote owners). Workers reach them only
 * through their queues (jobs that ended here for remote owners, jobs out on thieves that were aborted),
 * and application threads reach this node only through {@link NodeLifecycle}. This class routes the
 * listener calls to the two tables, drives the steal policy and keeps the steal statistics.
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

    private final Scheduler scheduler;
    private final StealStrategy strategy;
    private final Peers peers;
    private final GivenJobs given;
    private final ForeignJobs foreign;
    private final NodeLifecycle lifecycle = new NodeLifecycle();
    private final StealSender sender = this::sendStealRequest;

    // Agent thread only.
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
    private volatile long lateReplies;
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
        this.strategy = strategy;
        this.peers = new Peers(site);
        this.given = new GivenJobs(scheduler, peers);
        this.foreign = new ForeignJobs(scheduler, jobTypes, peers);
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
        foreign.cancelAll();
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
        return new NetworkStatistics(siteStealAttempts, siteSteals, wideAreaStealAttempts, wideAreaSteals, given.jobsGiven(),
            foreign.remoteJobsRun(), messages, bytes);
    }

    /** Replies that came for no outstanding request, and results for no outstanding job (late or duplicate). */
    public long lateReplies() {
        return lateReplies + given.lateResults();
    }

    /** RUN_STARTED messages received from peers (each woke this node and reset its steal backoff). */
    public long runStartsReceived() {
        return runStartsReceived;
    }

    /** Stolen jobs whose type this node does not know. */
    public long unknownJobTypes() {
        return foreign.unknownJobTypes();
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
        int work = foreign.sendEnded(p) + given.sendAborts(p) + strategy.expire(nowNs);
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
        final boolean quiet = !activity && lifecycle.isJoined() && scheduler.isOutOfWork() &&
            given.isEmpty() && foreign.isEmpty();
        activity = false;
        return quiet;
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

    // ---------------------------------------------------------------------------------------------
    // Victim side.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onStealRequest(final int thiefId, final long requestId, final boolean wideArea) {
        final NetworkProxy p = proxy;
        if (p == null) {
            return; // not attached yet: the thief's request times out
        }
        if (given.onStealRequest(p, thiefId, requestId)) {
            activity = true;
        }
    }

    @Override
    public void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset,
        final int length) {
        activity = true;
        given.onJobResult(thiefId, ownerJobId, buffer, offset, length);
    }

    @Override
    public void onJobFailed(final int thiefId, final long ownerJobId, final String exceptionClassName, final String message,
        final String stackTrace) {
        activity = true;
        given.onJobFailed(thiefId, ownerJobId, exceptionClassName, message, stackTrace);
    }

    @Override
    public void onJobAborted(final int thiefId, final long ownerJobId) {
        activity = true;
        given.onJobAborted(thiefId, ownerJobId);
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
        final String problem = foreign.decode(victimId, jobTypeName, buffer, stampOffset, stampLength, argumentsOffset,
            argumentsLength);
        if (problem != null) {
            // Counted as a failed steal; the owner gets the failure instead of waiting forever.
            onStealFailed(victimId, requestId);
            foreign.rejectUndecodable(proxy, victimId, ownerJobId, problem);
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
        foreign.adopt(victimId, ownerJobId, lifecycle.terminationCodeOrNone() != NodeLifecycle.NO_CODE);
    }

    @Override
    public void onAbort(final int senderId, final long ownerJobId) {
        activity = true;
        foreign.onAbort(senderId, ownerJobId);
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
        given.failJobsHeldBy(member);
        foreign.cancelJobsOwnedBy(member.id());
    }

    @Override
    public void onRegistryLost(final String message) {
        lifecycle.onLost(message);
        foreign.cancelAll();
    }

    @Override
    public void onTerminate(final int senderId, final int exitCode) {
        activity = true;
        lifecycle.onTerminated(exitCode);
        foreign.cancelAll();
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

    /** For messages: a duration in seconds or milliseconds. */
    static String formatDuration(final long ns) {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
