package org.divvy.membership;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.JoinFlyweight;
import org.divvy.protocol.MemberListFlyweight;
import org.divvy.protocol.MessageType;

/**
 * A node's side of membership: JOIN through the bootstrap endpoint, retried until the join timeout;
 * heartbeats to the registry; the member list as the registry last sent it; and the cut rule of thesis
 * §3.1: {@link #isCut(int)} is true for every sender that is not an alive member, so the agent drops its
 * frames.
 *
 * <p>A node that stops hearing the registry for the heartbeat timeout reports it once and stops
 * heartbeating; so does a node that finds itself dead in a list.
 *
 * <p>Owned by the network agent thread.
 */
public final class MembershipClient {
    /** Where a node is in its membership life. */
    public enum Phase { NOT_STARTED, JOINING, JOINED, JOIN_FAILED, REGISTRY_LOST, LEFT }

    private final MembershipSettings settings;
    private final String registryEndpoint;
    private final String selfEndpoint;
    private final Outbox outbox;
    private final MembershipListener listener;
    private final Int2ObjectHashMap<Member> memberById = new Int2ObjectHashMap<>();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[4096]);
    private final JoinFlyweight join = new JoinFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final MemberListFlyweight.MemberConsumer memberApplier = this::applyMember;

    private Phase phase = Phase.NOT_STARTED;
    private int selfId = HeaderFlyweight.UNASSIGNED_ID;
    private int epoch = -1;
    private long joinDeadlineNs;
    private long nextJoinNs;
    private long nextHeartbeatNs;
    private long registryHeardNs;

    /**
     * @param selfEndpoint where this node is reached; also the registry's endpoint when the settings name
     *                     no join endpoint (this node hosts the registry).
     */
    public MembershipClient(
        final MembershipSettings settings, final String selfEndpoint, final Outbox outbox, final MembershipListener listener) {
        this.settings = settings;
        this.selfEndpoint = selfEndpoint;
        this.registryEndpoint = settings.joinEndpoint() == null ? selfEndpoint : settings.joinEndpoint();
        this.outbox = outbox;
        this.listener = listener;
    }

    public Phase phase() {
        return phase;
    }

    /** This node's id, or {@link HeaderFlyweight#UNASSIGNED_ID} before it joined. */
    public int selfId() {
        return selfId;
    }

    /** The epoch of the last list applied; -1 before the first. */
    public int epoch() {
        return epoch;
    }

    public String registryEndpoint() {
        return registryEndpoint;
    }

    /** The member with {@code id}, or null. */
    public Member member(final int id) {
        return memberById.get(id);
    }

    /** A copy of the known members, ordered by id. */
    public List<Member> members() {
        final List<Member> copy = new ArrayList<>(memberById.values());
        copy.sort((a, b) -> Integer.compare(a.id(), b.id()));
        return copy;
    }

    /** Whether frames from {@code senderId} must be dropped: it is not an alive member. */
    public boolean isCut(final int senderId) {
        final Member member = memberById.get(senderId);
        return member == null || !member.isAlive();
    }

    /** Starts joining at {@code nowNs}. */
    public void start(final long nowNs) {
        phase = Phase.JOINING;
        joinDeadlineNs = nowNs + settings.joinTimeoutNs();
        nextJoinNs = nowNs;
    }

    /** Sends JOINs or heartbeats when due and checks the deadlines; returns the work done. */
    public int onTick(final long nowNs) {
        switch (phase) {
            case JOINING:
                if (nowNs - joinDeadlineNs >= 0) {
                    phase = Phase.JOIN_FAILED;
                    listener.onJoinFailed("no registry answered at " + registryEndpoint + " within " +
                        formatSeconds(settings.joinTimeoutNs()) + ": check --join and that the first node is running");
                    return 1;
                }
                if (nowNs - nextJoinNs >= 0) {
                    nextJoinNs = nowNs + settings.joinRetryIntervalNs();
                    join.wrap(sendBuffer, 0, sendBuffer.capacity());
                    join.headerDefaults(MessageType.JOIN);
                    join.siteAndEndpoint(settings.site(), selfEndpoint);
                    outbox.send(registryEndpoint, sendBuffer, 0, join.frameLength());
                    return 1;
                }
                return 0;
            case JOINED:
                if (nowNs - (registryHeardNs + settings.heartbeatTimeoutNs()) > 0) {
                    registryLost("the registry at " + registryEndpoint + " was silent for " +
                        formatSeconds(settings.heartbeatTimeoutNs()) + ": it crashed, or the network to it is cut");
                    return 1;
                }
                if (nowNs - nextHeartbeatNs >= 0) {
                    nextHeartbeatNs = nowNs + settings.heartbeatIntervalNs();
                    sendHeaderOnly(MessageType.HEARTBEAT);
                    return 1;
                }
                return 0;
            default:
                return 0;
        }
    }

    /** A MEMBER_LIST from the registry: the JOIN_ACK when it carries an assigned id while joining. */
    public void onMemberList(final MemberListFlyweight list, final long nowNs) {
        registryHeardNs = nowNs;
        if (phase == Phase.JOINING && list.assignedId() >= 0) {
            selfId = list.assignedId();
            phase = Phase.JOINED;
            nextHeartbeatNs = nowNs;
            listener.onJoined(selfId);
        }
        if (phase != Phase.JOINED || list.epoch() <= epoch) {
            return;
        }
        epoch = list.epoch();
        list.forEachMember(memberApplier);
        final Member self = memberById.get(selfId);
        if (self != null && !self.isAlive()) {
            registryLost("the registry declared this node " + self.state() + " at epoch " + epoch);
        }
    }

    /** A heartbeat from the registry. */
    public void onRegistryHeartbeat(final long nowNs) {
        registryHeardNs = nowNs;
    }

    /** Leaves gracefully: tells the registry and stops heartbeating. */
    public void leave() {
        if (phase == Phase.JOINED) {
            sendHeaderOnly(MessageType.LEAVE);
        }
        phase = Phase.LEFT;
    }

    private void applyMember(final int id, final int stateCode, final String site, final String endpoint) {
        final MemberState state = MemberState.fromCode(stateCode);
        if (state == null) {
            return;
        }
        final Member known = memberById.get(id);
        if (known != null && known.state() == state) {
            return;
        }
        final Member member = new Member(id, site, endpoint, state);
        memberById.put(id, member);
        if (!member.isAlive() && id != selfId) {
            outbox.cut(endpoint);
        }
        listener.onMemberChanged(member);
    }

    private void registryLost(final String message) {
        phase = Phase.REGISTRY_LOST;
        listener.onRegistryLost(message);
    }

    private void sendHeaderOnly(final int type) {
        header.wrap(sendBuffer, 0, HeaderFlyweight.HEADER_LENGTH);
        header.headerDefaults(type).senderId(selfId).epoch(epoch);
        outbox.send(registryEndpoint, sendBuffer, 0, HeaderFlyweight.HEADER_LENGTH);
    }

    private static String formatSeconds(final long ns) {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }
}
