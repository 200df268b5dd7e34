package org.divvy.membership;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.JoinFlyweight;
import org.divvy.protocol.MemberListFlyweight;
import org.divvy.protocol.MessageType;

/**
 * The registry role (the Ibis Registry of the thesis, §2.2): assigns node ids in join order, keeps the
 * member list with site labels and an epoch that grows with every change, sends the whole list to a
 * joiner (its JOIN_ACK) and to every alive member after each join, leave or death, heartbeats the
 * members and declares a member dead when it is silent for the heartbeat timeout.
 *
 * <p>Ids are never reused, and dead or departed members stay in the list with their state, so a late
 * frame from them is recognised and cut. A repeated JOIN from the same endpoint (the ack was lost) is
 * answered with the same id.
 *
 * <p>Owned by the agent thread that hosts it (a node's network agent, or a {@link StandaloneRegistry}).
 */
public final class Registry {
    /** The sender id on the registry's frames; not a node id. */
    public static final int REGISTRY_ID = -2;

    private final MembershipSettings settings;
    private final Outbox outbox;
    private final FailureDetector detector;
    private final List<Member> members = new ArrayList<>();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[64 * 1024]);
    private final MemberListFlyweight list = new MemberListFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private int epoch;
    private long nextHeartbeatNs;

    public Registry(final MembershipSettings settings, final Outbox outbox) {
        this.settings = settings;
        this.outbox = outbox;
        this.detector = new FailureDetector(settings.heartbeatTimeoutNs());
    }

    public int epoch() {
        return epoch;
    }

    /** A copy of the list, for tests and tools. */
    public List<Member> members() {
        return List.copyOf(members);
    }

    /** A JOIN arrived: assign an id (or repeat the one given to that endpoint) and send the lists. */
    public void onJoin(final JoinFlyweight join, final long nowNs) {
        final String endpoint = join.endpoint();
        for (final Member member : members) {
            if (member.endpoint().equals(endpoint) && member.isAlive()) {
                detector.onHeard(member.id(), nowNs);
                sendList(member.endpoint(), member.id());
                return;
            }
        }
        final Member joiner = new Member(members.size(), join.site(), endpoint, MemberState.ALIVE);
        members.add(joiner);
        epoch++;
        detector.onHeard(joiner.id(), nowNs);
        sendList(joiner.endpoint(), joiner.id());
        broadcastList(joiner.id());
    }

    /** A member's heartbeat (or any frame that proves it alive). */
    public void onHeartbeat(final int senderId, final long nowNs) {
        if (isAlive(senderId)) {
            detector.onHeard(senderId, nowNs);
        }
    }

    /** A member leaves gracefully. */
    public void onLeave(final int senderId) {
        if (isAlive(senderId)) {
            detector.remove(senderId);
            changeState(senderId, MemberState.LEFT);
        }
    }

    /** Sends heartbeats when due and declares silent members dead; returns the work done. */
    public int onTick(final long nowNs) {
        int work = detector.pollExpired(nowNs, id -> changeState(id, MemberState.DEAD));
        if (nowNs - nextHeartbeatNs >= 0) {
            nextHeartbeatNs = nowNs + settings.heartbeatIntervalNs();
            header.wrap(sendBuffer, 0, HeaderFlyweight.HEADER_LENGTH);
            header.headerDefaults(MessageType.HEARTBEAT).senderId(REGISTRY_ID).epoch(epoch);
            for (final Member member : members) {
                if (member.isAlive()) {
                    outbox.send(member.endpoint(), sendBuffer, 0, HeaderFlyweight.HEADER_LENGTH);
                    work++;
                }
            }
        }
        return work;
    }

    /** Whether {@code id} is an alive member. */
    public boolean isAlive(final int id) {
        return id >= 0 && id < members.size() && members.get(id).isAlive();
    }

    private void changeState(final int id, final MemberState state) {
        final Member member = members.get(id);
        members.set(id, member.withState(state));
        epoch++;
        outbox.cut(member.endpoint());
        broadcastList(MemberListFlyweight.NO_ASSIGNED_ID);
    }

    private void broadcastList(final int exceptId) {
        for (final Member member : members) {
            if (member.isAlive() && member.id() != exceptId) {
                sendList(member.endpoint(), MemberListFlyweight.NO_ASSIGNED_ID);
            }
        }
    }

    private void sendList(final String endpoint, final int assignedId) {
        list.wrap(sendBuffer, 0, sendBuffer.capacity());
        list.headerDefaults(MessageType.MEMBER_LIST).senderId(REGISTRY_ID).epoch(epoch);
        list.assignedId(assignedId);
        for (final Member member : members) {
            list.appendMember(member.id(), member.state().code(), member.site(), member.endpoint());
        }
        outbox.send(endpoint, sendBuffer, 0, list.frameLength());
    }
}
