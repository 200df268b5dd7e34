package org.divvy.membership;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.HeaderFlyweight;

/**
 * Membership's messages and their handlers: JOIN and LEAVE for the registry, MEMBER_LIST from it, and
 * HEARTBEAT both ways. They are registered for any sender, since a joiner has no id yet and the
 * registry's id is no member's; each handler applies the rule that fits its message (only the registry
 * lists members; only alive members heartbeat or leave) and counts what it drops.
 *
 * <p>Agent thread only.
 */
public final class MembershipMessages {
    /** The message type code (LEAVE): a node leaves gracefully; header only. */
    public static final int LEAVE = 3;
    /** The message type code (HEARTBEAT): liveness between a node and the registry; header only. */
    public static final int HEARTBEAT = 4;
    /** The message type code (LEAVE_ORDER): the registry tells a member to leave gracefully; header only. */
    public static final int LEAVE_ORDER = 22;

    private final MembershipClient client;
    private final Registry registry;
    private final FrameCounters counters;
    private final NanoClock cycleClock;
    private final JoinFlyweight join = new JoinFlyweight();
    private final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
    private final JoinRefusedFlyweight refusal = new JoinRefusedFlyweight();
    private final MemberListFlyweight memberList = new MemberListFlyweight();
    private final LeaveRequestFlyweight leaveRequest = new LeaveRequestFlyweight();
    private final StreamLostFlyweight streamLost = new StreamLostFlyweight();

    private MembershipMessages(final MembershipClient client, final Registry registry, final FrameCounters counters,
        final NanoClock cycleClock) {
        this.client = client;
        this.registry = registry;
        this.counters = counters;
        this.cycleClock = cycleClock;
    }

    /**
     * The types of the join handshake (JOIN, JOIN_CHALLENGE, JOIN_REFUSED) and of an operator's leave request
     * (LEAVE_REQUEST, LEAVE_ANSWER): the only ones that travel under the join key, since a joiner, or a tool that
     * is no member, does not know the run's key.
     */
    public static boolean isHandshakeType(final int type) {
        return type == JoinFlyweight.TYPE || type == JoinChallengeFlyweight.TYPE || type == JoinRefusedFlyweight.TYPE
            || type == LeaveRequestFlyweight.TYPE || type == LeaveAnswerFlyweight.TYPE;
    }

    /**
     * Registers the membership types for a node: its client, and the registry role when the node
     * hosts it ({@code registry} may be null).
     */
    public static void registerNode(final FrameDispatcher dispatcher, final MembershipClient client, final Registry registry,
        final NanoClock cycleClock) {
        register(dispatcher, new MembershipMessages(client, registry, dispatcher.counters(), cycleClock));
    }

    /**
     * Registers the types for a registry without a node of its own: JOIN, HEARTBEAT and LEAVE (a MEMBER_LIST
     * reaching it is counted and dropped).
     */
    static void registerRegistry(final FrameDispatcher dispatcher, final Registry registry, final NanoClock cycleClock) {
        register(dispatcher, new MembershipMessages(null, registry, dispatcher.counters(), cycleClock));
    }

    private static void register(final FrameDispatcher dispatcher, final MembershipMessages messages) {
        dispatcher.register(JoinFlyweight.TYPE, "JOIN", new JoinFlyweight(), JoinFlyweight.MIN_BODY_LENGTH, Senders.ANY,
            messages::onJoin);
        dispatcher.register(JoinChallengeFlyweight.TYPE, "JOIN_CHALLENGE", new JoinChallengeFlyweight(),
            JoinChallengeFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onJoinChallenge);
        dispatcher.register(JoinRefusedFlyweight.TYPE, "JOIN_REFUSED", new JoinRefusedFlyweight(),
            JoinRefusedFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onJoinRefused);
        dispatcher.register(MemberListFlyweight.TYPE, "MEMBER_LIST", new MemberListFlyweight(),
            MemberListFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onMemberList);
        dispatcher.register(LEAVE, "LEAVE", new HeaderFlyweight(), 0, Senders.ANY, messages::onLeave);
        dispatcher.register(HEARTBEAT, "HEARTBEAT", new HeaderFlyweight(), 0, Senders.ANY, messages::onHeartbeat);
        dispatcher.register(LeaveRequestFlyweight.TYPE, "LEAVE_REQUEST", new LeaveRequestFlyweight(),
            LeaveRequestFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onLeaveRequest);
        // for the requesting tool only ({@code LeaveRequester}); a node counts and drops one
        dispatcher.register(LeaveAnswerFlyweight.TYPE, "LEAVE_ANSWER", new LeaveAnswerFlyweight(),
            LeaveAnswerFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onStrayAnswer);
        dispatcher.register(LEAVE_ORDER, "LEAVE_ORDER", new HeaderFlyweight(), 0, Senders.ANY, messages::onLeaveOrder);
        // any sender, as membership's others (a standalone registry has no member table): the registry checks it
        dispatcher.register(StreamLostFlyweight.TYPE, "STREAM_LOST", new StreamLostFlyweight(),
            StreamLostFlyweight.MIN_BODY_LENGTH, Senders.ANY, messages::onStreamLost);
    }

    private int onJoin(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (registry == null) {
            FrameCounters.count(counters.fromUnknownSender); // this node hosts no registry
            return 0;
        }
        join.wrap(buffer, offset, length);
        if (!registry.onJoin(join, cycleClock.nanoTime())) {
            FrameCounters.count(counters.malformed); // an endpoint nobody can be sent to
        }
        return 0;
    }

    private int onJoinChallenge(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        challenge.wrap(buffer, offset, length);
        if (client == null || senderId != Registry.REGISTRY_ID || !client.onJoinChallenge(challenge, cycleClock.nanoTime())) {
            FrameCounters.count(counters.fromUnknownSender); // not an answer to this node's JOIN
        }
        return 0;
    }

    private int onJoinRefused(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        refusal.wrap(buffer, offset, length);
        if (client == null || senderId != Registry.REGISTRY_ID || !client.onJoinRefused(refusal)) {
            FrameCounters.count(counters.fromUnknownSender);
        }
        return 0;
    }

    private int onMemberList(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (client == null || senderId != Registry.REGISTRY_ID) {
            FrameCounters.count(counters.fromUnknownSender);
            return 0;
        }
        memberList.wrap(buffer, offset, length);
        return client.onMemberList(memberList, cycleClock.nanoTime());
    }

    private int onHeartbeat(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (senderId == Registry.REGISTRY_ID && client != null) {
            client.onRegistryHeartbeat(cycleClock.nanoTime());
        } else if (registry != null && registry.isAlive(senderId)) {
            registry.onHeartbeat(senderId, cycleClock.nanoTime());
        } else {
            FrameCounters.count(counters.fromDeadPeer);
            if (registry != null) {
                registry.onHeartbeatFromRemoved(senderId, cycleClock.nanoTime()); // it may not know yet
            }
        }
        return 0;
    }

    private int onLeave(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (registry != null && registry.isAlive(senderId)) {
            registry.onLeave(senderId);
        } else {
            FrameCounters.count(counters.fromDeadPeer);
        }
        return 0;
    }

    private int onLeaveRequest(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (registry == null) {
            FrameCounters.count(counters.fromUnknownSender); // this node hosts no registry
            return 0;
        }
        leaveRequest.wrap(buffer, offset, length);
        if (!registry.onLeaveRequest(leaveRequest)) {
            FrameCounters.count(counters.malformed); // an endpoint nobody can be sent to
        }
        return 0;
    }

    private int onStrayAnswer(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        FrameCounters.count(counters.fromUnknownSender); // a node asked nothing
        return 0;
    }

    private int onStreamLost(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (registry == null) {
            FrameCounters.count(counters.fromUnknownSender); // this node hosts no registry
            return 0;
        }
        if (!registry.isAlive(senderId)) {
            FrameCounters.count(counters.fromDeadPeer);
            return 0;
        }
        streamLost.wrap(buffer, offset, length);
        return registry.onStreamLost(senderId, streamLost, cycleClock.nanoTime());
    }

    private int onLeaveOrder(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (client == null || senderId != Registry.REGISTRY_ID || !client.onLeaveOrder()) {
            FrameCounters.count(counters.fromUnknownSender);
        }
        return 0;
    }
}
