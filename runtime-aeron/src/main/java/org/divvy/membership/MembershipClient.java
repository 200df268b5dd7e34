package org.divvy.membership;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntHashSet;
import org.divvy.NodeConfig;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.transport.LossListener;

/**
 * A node's side of membership: JOIN through the bootstrap endpoint, retried until the join timeout, with
 * the cookie of the registry's challenge once it came (which also names the run key, handed to
 * {@code onRunKey}) and this build's digest, which the registry may refuse;
 * heartbeats to the registry; the member list as the registry last sent it, applied to {@link Members};
 * and a graceful LEAVE when asked. A node whose failure detector suspects the registry
 * ({@link PhiAccrualFailureDetector}) reports it once and stops heartbeating; so does a node that finds
 * itself dead in a list.
 *
 * <p>A node that was stopped itself ({@link OwnPauseDetector}: a gap between its duty cycles of more than
 * half the acceptable pause) restarts its detection of the registry first, since it could hear nothing
 * while stopped; if the others removed it meanwhile, its report says that it was paused, for how long, and
 * that it was removed, rather than blaming the registry.
 *
 * <p>Its {@link #doWork} is a housekeeping duty: joins and heartbeats keep the node in the run but are no
 * work of the computation. Owned by the network agent thread, except {@link #requestLeave()}.
 */
public final class MembershipClient implements Duty, LossListener {
    private static final System.Logger LOG = System.getLogger(MembershipClient.class.getName());
    /** A stop of this node longer than this (1 s) is remembered for {@link StreamLostFlyweight STREAM_LOST} reports. */
    static final long LOSS_PAUSE_RECORD_NS = TimeUnit.SECONDS.toNanos(1);
    /** How far back a stop of this node counts in a STREAM_LOST report (60 s). */
    static final long LOSS_PAUSE_WINDOW_NS = TimeUnit.SECONDS.toNanos(60);

    /** Where a node is in its membership life. */
    public enum Phase { NOT_STARTED, JOINING, JOINED, JOIN_FAILED, REGISTRY_LOST, LEFT }

    private final String site;
    private final long joinTimeoutNs;
    private final long joinRetryIntervalNs;
    private final long heartbeatIntervalNs;
    private final long acceptablePauseNs;
    /** The registry's address as configured ({@code --join}): where JOINs go, and what messages name. */
    private final String registryEndpoint;
    /**
     * Where frames to the registry go: the configured address until its challenge names its own endpoint,
     * which run-key frames are bound to (an alias such as {@code localhost} for {@code 127.0.0.1} would not verify).
     */
    private String registryTarget;
    private final String selfEndpoint;
    private final Members members;
    private final FrameSender sender;
    private final MembershipListener[] listeners;
    private final byte[] buildDigest;
    private final IntConsumer onRunKey;
    private final JoinFlyweight join = new JoinFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final MemberListFlyweight.MemberConsumer memberApplier = this::applyMember;
    /** Watches the registry alone (id {@link Registry#REGISTRY_ID}). */
    private final PhiAccrualFailureDetector registryDetector;
    private final OwnPauseDetector ownPause;
    private final PhiAccrualFailureDetector.SuspicionHandler onRegistrySuspected = this::onRegistrySuspected;
    /**
     * Remembers this node's own stops of more than {@link #LOSS_PAUSE_RECORD_NS}, told to the registry with a loss:
     * a node that was stopped broke its own streams (Aeron's images time out after 10 s of silence).
     */
    private final OwnPauseDetector lossPause = new OwnPauseDetector(LOSS_PAUSE_RECORD_NS);
    private final StreamLostFlyweight streamLost = new StreamLostFlyweight();
    /** Losses not yet reported to the registry: {peer id, 1 if this node sent them else 0, how many}. */
    private final List<long[]> pendingLosses = new ArrayList<>();
    /** Peers a loss was reported for (or is pending): one report per peer, the registry removes one of the two. */
    private final IntHashSet lossReported = new IntHashSet();
    private volatile long lossesReported;

    private Phase phase = Phase.NOT_STARTED;
    private long joinNonce;
    /** The cookie of the registry's challenge to {@link #joinNonce}; 0 until it came. */
    private long joinCookie;
    /** The run key id the registry's challenge named; 0 until then. */
    private int runKeyId;
    private long joinDeadlineNs;
    private long nextJoinNs;
    private long nextHeartbeatNs;
    /** The current duty cycle's time, for messages written in callbacks. */
    private long cycleNs;
    private int changesApplied;
    /** Set by any thread; the agent thread sends the LEAVE in its next cycle. */
    private volatile boolean leaveRequested;
    private volatile boolean left;

    /**
     * @param config       site, join address and membership timings; no join address means this node hosts the
     *                     registry and joins itself.
     * @param selfEndpoint where this node is reached; also the registry's endpoint when it hosts it.
     * @param listeners    told of joins, member changes and a lost registry, in this order.
     */
    public MembershipClient(final NodeConfig config, final String selfEndpoint, final Members members,
        final FrameSender sender, final List<? extends MembershipListener> listeners) {
        this(config, selfEndpoint, members, sender, listeners, new byte[0], id -> { });
    }

    /**
     * @param buildDigest the digest of this node's job types and codecs (empty: it runs no jobs).
     * @param onRunKey    told the run key id the registry's challenge names.
     */
    public MembershipClient(final NodeConfig config, final String selfEndpoint, final Members members,
        final FrameSender sender, final List<? extends MembershipListener> listeners, final byte[] buildDigest,
        final IntConsumer onRunKey) {
        this.buildDigest = buildDigest.clone();
        this.onRunKey = onRunKey;
        this.site = config.site();
        this.joinTimeoutNs = TimeUnit.MILLISECONDS.toNanos(config.joinTimeoutMs());
        // a retry interval beyond the timeout would never retry
        this.joinRetryIntervalNs = Math.min(TimeUnit.MILLISECONDS.toNanos(config.joinRetryIntervalMs()), joinTimeoutNs);
        this.heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(config.heartbeatIntervalMs());
        this.registryDetector = PhiAccrualFailureDetector.of(config);
        this.acceptablePauseNs = registryDetector.acceptablePauseNs();
        this.ownPause = new OwnPauseDetector(OwnPauseDetector.thresholdFor(acceptablePauseNs, heartbeatIntervalNs));
        this.selfEndpoint = selfEndpoint;
        this.registryEndpoint = config.join() == null ? selfEndpoint : config.join();
        this.registryTarget = registryEndpoint;
        this.members = members;
        this.sender = sender;
        this.listeners = listeners.toArray(new MembershipListener[0]);
    }

    /** Where the registry is reached now (agent thread). */
    public String registryEndpoint() {
        return registryTarget;
    }

    public Phase phase() {
        return phase;
    }

    public Members members() {
        return members;
    }

    /** The id of the run's key, as the registry's challenge named it; 0 before. */
    public int runKeyId() {
        return runKeyId;
    }

    /** Starts joining at {@code nowNs}. */
    public void start(final long nowNs) {
        phase = Phase.JOINING;
        joinNonce = new SecureRandom().nextLong();
        joinCookie = 0;
        joinDeadlineNs = nowNs + joinTimeoutNs;
        nextJoinNs = nowNs;
    }

    /** Whether the registry ordered this node to leave; agent thread. */
    private boolean leaveOrdered;

    /** Asks to leave gracefully (any thread): the LEAVE goes out in the agent's next cycle. */
    public void requestLeave() {
        leaveRequested = true;
    }

    /** Whether this node's LEAVE was handed to the transport (or it never joined); any thread. */
    public boolean hasLeft() {
        return left;
    }

    @Override
    public boolean isHousekeeping() {
        return true;
    }

    /** Paced: joins, heartbeats, failure detection and a requested leave: milliseconds or more. */
    @Override
    public boolean isPaced() {
        return true;
    }

    /**
     * Restarts the registry's detection after a pause of this node, sends JOINs, heartbeats or the LEAVE
     * when due and checks the deadlines; returns the work done.
     */
    @Override
    public int doWork(final long nowNs) {
        cycleNs = nowNs;
        lossPause.onCycle(nowNs);
        if (ownPause.onCycle(nowNs) > 0) {
            registryDetector.restartAll(nowNs); // it could not be heard while this process was stopped
        }
        if (leaveRequested && phase != Phase.LEFT) {
            leave();
            return 1;
        }
        switch (phase) {
            case JOINING:
                if (nowNs - joinDeadlineNs >= 0) {
                    phase = Phase.JOIN_FAILED;
                    final String message = "no registry answered at " + registryEndpoint + " within " +
                        formatSeconds(joinTimeoutNs) + ": check --join, that the first node is running, and that this node has the run's cluster secret";
                    for (final MembershipListener listener : listeners) {
                        listener.onJoinFailed(message);
                    }
                    return 1;
                }
                if (nowNs - nextJoinNs >= 0) {
                    nextJoinNs = nowNs + joinRetryIntervalNs;
                    final MutableDirectBuffer frame = sender.frameBuffer(
                        JoinFlyweight.lengthBound(site, selfEndpoint, buildDigest));
                    join.wrap(frame, 0, frame.capacity());
                    join.headerDefaults(JoinFlyweight.TYPE);
                    join.fields(joinNonce, joinCookie, site, selfEndpoint, buildDigest);
                    sender.sendToEndpoint(registryTarget, join.frameLength());
                    return 1;
                }
                return 0;
            case JOINED:
                if (registryDetector.pollSuspected(nowNs, onRegistrySuspected) > 0) {
                    return 1;
                }
                if (!pendingLosses.isEmpty()) {
                    return reportLosses(nowNs);
                }
                if (nowNs - nextHeartbeatNs >= 0) {
                    nextHeartbeatNs = nowNs + heartbeatIntervalNs;
                    sendHeaderOnly(MembershipMessages.HEARTBEAT);
                    return 1;
                }
                return 0;
            default:
                return 0;
        }
    }

    /**
     * A MEMBER_LIST from the registry (the JOIN_ACK when it carries an assigned id while joining).
     *
     * @return how many members changed (work for the computation: a joiner may be the start of a run).
     */
    int onMemberList(final MemberListFlyweight list, final long nowNs) {
        if (phase == Phase.JOINING && list.assignedId() >= 0 && listsSelfAs(list, list.assignedId())) {
            members.selfId(list.assignedId());
            phase = Phase.JOINED;
            nextHeartbeatNs = nowNs;
            for (final MembershipListener listener : listeners) {
                listener.onJoined(members.selfId());
            }
        }
        if (phase != Phase.JOINED) {
            return 0;
        }
        registryDetector.onHeard(Registry.REGISTRY_ID, nowNs);
        if (list.epoch() <= members.epoch()) {
            return 0;
        }
        members.epoch(list.epoch());
        changesApplied = 0;
        list.forEachMember(memberApplier);
        final Member self = members.member(members.selfId());
        if (self != null && !self.isAlive()) {
            registryLost(removedMessage(self, nowNs));
        }
        return changesApplied;
    }

    /**
     * The registry's challenge: if it answers this node's current JOIN, use the run key it names and send
     * the JOIN again with its cookie at once.
     *
     * @return whether it answered the current JOIN (a stale or replayed one is counted by the caller).
     */
    boolean onJoinChallenge(final JoinChallengeFlyweight challenge, final long nowNs) {
        final String registryAt = challenge.registryEndpoint();
        if (phase != Phase.JOINING || challenge.nonce() != joinNonce || challenge.runKeyId() == 0 ||
            !Registry.isHostPort(registryAt)) {
            return false;
        }
        registryTarget = registryAt;
        runKeyId = challenge.runKeyId();
        onRunKey.accept(runKeyId);
        joinCookie = challenge.cookie();
        nextJoinNs = nowNs;
        return true;
    }

    /**
     * The registry orders this node to leave ({@code divvy leave}): the listeners are told once; the node then
     * leaves gracefully off the agent thread.
     *
     * @return false if this node is not a joined member (a stray order).
     */
    boolean onLeaveOrder() {
        if (phase != Phase.JOINED || leaveOrdered) {
            return phase == Phase.JOINED;
        }
        leaveOrdered = true;
        for (final MembershipListener listener : listeners) {
            listener.onLeaveOrdered();
        }
        return true;
    }

    /**
     * The registry refused this node: the join fails with its reason.
     *
     * @return whether it answered the current JOIN.
     */
    boolean onJoinRefused(final JoinRefusedFlyweight refusal) {
        if (phase != Phase.JOINING || refusal.nonce() != joinNonce) {
            return false;
        }
        phase = Phase.JOIN_FAILED;
        final String message = "the registry at " + registryEndpoint + " refused this node: " + refusal.reason();
        for (final MembershipListener listener : listeners) {
            listener.onJoinFailed(message);
        }
        return true;
    }

    /**
     * Whether the list has id {@code id} at this node's endpoint: an ack meant for another joiner (a frame
     * redirected on its way) must not give this node that joiner's id. Joins are rare: a lambda is fine.
     */
    private boolean listsSelfAs(final MemberListFlyweight list, final int id) {
        final boolean[] found = {false};
        list.forEachMember((memberId, state, memberSite, endpoint) -> found[0] |= memberId == id &&
            endpoint.equals(selfEndpoint));
        return found[0];
    }

    /**
     * Messages from {@code senderId} were lost in transit (the transport saw its stream skip some): unless the
     * sender is gone already, the loss goes to the registry, which declares this node or the sender dead, so
     * recovery re-runs what was lost. Agent thread (called during the transport's poll); sent in the next duty.
     */
    @Override
    public void onReceiveLoss(final int senderId, final long lost) {
        if (senderId == Registry.REGISTRY_ID || members.isAlive(senderId)) {
            queueLoss(senderId, false, lost);
        }
    }

    /** This node's stream to {@code peerEndpoint} was made anew under messages it had taken: reported as above. */
    @Override
    public void onSendLoss(final String peerEndpoint) {
        for (final Member member : members.list()) {
            if (member.isAlive() && member.endpoint().equals(peerEndpoint)) {
                queueLoss(member.id(), true, 0);
                return;
            }
        }
        if (peerEndpoint.equals(registryTarget)) {
            queueLoss(Registry.REGISTRY_ID, true, 0); // a registry that is no member (standalone)
        }
    }

    private void queueLoss(final int peerId, final boolean sent, final long lost) {
        if (phase == Phase.JOINED && lossReported.add(peerId)) {
            pendingLosses.add(new long[] {peerId, sent ? 1 : 0, lost});
        }
    }

    /** Sends the pending STREAM_LOST reports, in order, until one is refused (a full queue: tried again next cycle). */
    private int reportLosses(final long nowNs) {
        final long pausedMs = TimeUnit.NANOSECONDS.toMillis(lossPause.recentPauseNs(nowNs, LOSS_PAUSE_WINDOW_NS));
        int sent = 0;
        while (!pendingLosses.isEmpty()) {
            final long[] loss = pendingLosses.get(0);
            final MutableDirectBuffer frame = sender.frameBuffer(StreamLostFlyweight.FRAME_LENGTH);
            streamLost.wrap(frame, 0, StreamLostFlyweight.FRAME_LENGTH);
            streamLost.headerDefaults(StreamLostFlyweight.TYPE).senderId(members.selfId()).epoch(members.epoch());
            streamLost.fields((int) loss[0], loss[1] != 0, loss[2], pausedMs);
            if (!sender.sendToEndpoint(registryTarget, StreamLostFlyweight.FRAME_LENGTH)) {
                break;
            }
            pendingLosses.remove(0);
            lossesReported++;
            sent++;
        }
        return sent;
    }

    /** STREAM_LOST reports this node sent to the registry; any thread. */
    public long lossesReported() {
        return lossesReported;
    }

    /** A heartbeat from the registry. */
    void onRegistryHeartbeat(final long nowNs) {
        if (phase == Phase.JOINED) {
            registryDetector.onHeard(Registry.REGISTRY_ID, nowNs);
        }
    }

    /** Why this node is no longer a member, in the words of what most likely happened. */
    private String removedMessage(final Member self, final long nowNs) {
        final String declared = "declared " + self.state() + " at epoch " + members.epoch();
        final long pausedNs = ownPause.recentPauseNs(nowNs, 2 * acceptablePauseNs);
        if (pausedNs > 0 && lossReported.isEmpty()) {
            return "this node was paused for " + formatTenths(pausedNs) + " (the process or its machine was stopped: "
                + "SIGSTOP, a long GC pause, a suspended machine) and was removed from the run by the registry ("
                + declared + "); the others wait acceptableHeartbeatPauseMs=" + TimeUnit.NANOSECONDS.toMillis(acceptablePauseNs)
                + " for a silent node";
        }
        final long stoppedNs = lossPause.recentPauseNs(nowNs, LOSS_PAUSE_WINDOW_NS);
        if (stoppedNs > 0 || !lossReported.isEmpty()) {
            return "the registry " + declared + " after messages to or from this node were lost in transit, which it "
                + "handles as a failure (" + (stoppedNs > 0 ? "this node was stopped for " + formatTenths(stoppedNs)
                + ": Aeron gives up on a stream after 10 s of silence" : "this node reported losses") + "), or it did "
                + "not hear this node's heartbeats for longer than acceptableHeartbeatPauseMs="
                + TimeUnit.NANOSECONDS.toMillis(acceptablePauseNs);
        }
        return "the registry " + declared + ": it did not hear this node's heartbeats for longer than its failure "
            + "detector accepts (acceptableHeartbeatPauseMs=" + TimeUnit.NANOSECONDS.toMillis(acceptablePauseNs)
            + "); this node was stalled or the network to the registry is cut";
    }

    private void onRegistrySuspected(final int id, final long silenceNs, final double phi) {
        final long pausedNs = ownPause.recentPauseNs(cycleNs, 2 * acceptablePauseNs);
        if (pausedNs > 0) {
            registryLost("this node was paused for " + formatTenths(pausedNs) + " (the process or its machine was "
                + "stopped: SIGSTOP, a long GC pause, a suspended machine) and has not heard the registry at "
                + registryEndpoint + " for " + formatTenths(silenceNs) + " since: the registry most likely removed it "
                + "from the run");
            return;
        }
        registryLost("the registry at " + registryEndpoint + registryHost() + " was silent for " + formatTenths(silenceNs)
            + " (failure detector phi " + String.format(Locale.ROOT, "%.1f", phi) + " >= " + (int) registryDetector.threshold()
            + "): it crashed, was stopped for longer than acceptableHeartbeatPauseMs="
            + TimeUnit.NANOSECONDS.toMillis(acceptablePauseNs) + ", or the network to it is cut");
    }

    /** " (node 0, site a)" when a member hosts the registry, else "". */
    private String registryHost() {
        for (final Member member : members.list()) {
            if (member.endpoint().equals(registryTarget)) {
                return " (node " + member.id() + ", site " + member.site() + ")";
            }
        }
        return "";
    }

    private void leave() {
        if (phase == Phase.JOINED) {
            sendHeaderOnly(MembershipMessages.LEAVE);
        }
        phase = Phase.LEFT;
        left = true;
    }

    private void applyMember(final int id, final int stateCode, final String site, final String endpoint) {
        final MemberState state = MemberState.fromCode(stateCode);
        if (state == null) {
            return;
        }
        final Member member = new Member(id, site, endpoint, state);
        final Member known = members.member(id);
        if (!members.update(member)) {
            return;
        }
        changesApplied++;
        if (state == MemberState.DEAD && id != members.selfId() && known != null && known.isAlive()) {
            LOG.log(System.Logger.Level.WARNING, "node " + id + " (site " + site + ", " + endpoint + ") was declared "
                + "dead by the registry at epoch " + members.epoch() + ": its process exited (seen by the process "
                + "that started it), no heartbeat came for longer than its failure detector accepts (killed, crashed, "
                + "stopped for more than acceptableHeartbeatPauseMs=" + TimeUnit.NANOSECONDS.toMillis(acceptablePauseNs)
                + ", or cut off), or messages to or from it were lost in transit (the registry's log says which)");
        }
        if (!member.isAlive() && id != members.selfId()) {
            sender.cut(endpoint);
        }
        for (final MembershipListener listener : listeners) {
            listener.onMemberChanged(member);
        }
    }

    private void registryLost(final String message) {
        phase = Phase.REGISTRY_LOST;
        for (final MembershipListener listener : listeners) {
            listener.onRegistryLost(message);
        }
    }

    private void sendHeaderOnly(final int type) {
        final MutableDirectBuffer frame = sender.frameBuffer(HeaderFlyweight.HEADER_LENGTH);
        header.wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH);
        header.headerDefaults(type).senderId(members.selfId()).epoch(members.epoch());
        sender.sendToEndpoint(registryTarget, HeaderFlyweight.HEADER_LENGTH);
    }

    /** A duration in seconds with one decimal: {@code "12.3 s"}. */
    static String formatTenths(final long ns) {
        return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }

    static String formatSeconds(final long ns) {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
