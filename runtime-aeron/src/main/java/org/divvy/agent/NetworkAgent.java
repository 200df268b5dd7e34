package org.divvy.agent;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.divvy.membership.Member;
import org.divvy.membership.MembershipClient;
import org.divvy.membership.MembershipListener;
import org.divvy.membership.MembershipSettings;
import org.divvy.membership.Outbox;
import org.divvy.membership.Registry;
import org.divvy.protocol.AbortFlyweight;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.JobResultFlyweight;
import org.divvy.protocol.JoinFlyweight;
import org.divvy.protocol.MemberListFlyweight;
import org.divvy.protocol.MessageType;
import org.divvy.protocol.StealReplyFlyweight;
import org.divvy.protocol.StealRequestFlyweight;
import org.divvy.protocol.TerminateFlyweight;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.FrameHandler;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.TransportSettings;

/**
 * A node's network agent. Each duty cycle reads the clock once, steps the embedded driver and client
 * conductor, drains worker commands, polls the subscription, ticks membership (and the registry role
 * if this node hosts it: when its settings name no join endpoint) and retries outbound queues, and
 * returns the work done so the idle strategy can back off.
 *
 * <p>Inbound frames are validated by the transport; here they are routed: membership frames to the
 * registry or the membership client, everything else to the {@link RemoteWorkListener} unless the sender
 * is not an alive member, in which case it is dropped and counted ({@link FrameCounters#fromDeadPeer},
 * {@link FrameCounters#fromUnknownSender}).
 *
 * <p>{@link #doWork()} never throws: errors go to the error handler and are counted. Owned by one
 * thread: an {@link org.agrona.concurrent.AgentRunner}'s, or a test's stepping it.
 */
public final class NetworkAgent implements Agent, FrameHandler, MessageHandler, Outbox, MembershipListener {
    static final int COMMAND_LIMIT = 64;
    static final int FRAGMENT_LIMIT = 64;
    static final int OUTBOUND_LIMIT_PER_LINK = 64;

    private final NanoClock clock;
    private final RingBuffer commands;
    private final RemoteWorkListener listener;
    private final ErrorHandler errorHandler;
    private final AtomicLong errors = new AtomicLong();
    private final FrameCounters frameCounters = new FrameCounters();
    private final TrafficCounters traffic = new TrafficCounters();
    private final AeronTransport transport;
    private final Registry registry;
    private final MembershipClient membership;
    private final Int2IntHashMap linkByNodeId = new Int2IntHashMap(-1);
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final JoinFlyweight join = new JoinFlyweight();
    private final MemberListFlyweight memberList = new MemberListFlyweight();
    private final StealRequestFlyweight stealRequest = new StealRequestFlyweight();
    private final StealReplyFlyweight stealReply = new StealReplyFlyweight();
    private final JobResultFlyweight jobResult = new JobResultFlyweight();
    private final AbortFlyweight abort = new AbortFlyweight();
    private final TerminateFlyweight terminate = new TerminateFlyweight();
    private final DeepIdle deepIdle;
    private volatile boolean left;
    private long nowNs;

    /**
     * Starts the transport (and the embedded driver unless an Aeron directory is configured).
     *
     * @param errorHandler receives every error after it is counted; must not throw.
     */
    public NetworkAgent(
        final TransportSettings transportSettings,
        final MembershipSettings membershipSettings,
        final NanoClock clock,
        final RingBuffer commands,
        final RemoteWorkListener listener,
        final ErrorHandler errorHandler) {
        this(transportSettings, membershipSettings, clock, commands, listener, errorHandler,
            new DeepIdle(NetworkService.DEFAULT_DEEP_IDLE_AFTER_NS));
    }

    /**
     * As above, with the {@link DeepIdle} state this agent updates each duty cycle (shared with its idle
     * strategy, which runs on the same thread).
     */
    public NetworkAgent(
        final TransportSettings transportSettings,
        final MembershipSettings membershipSettings,
        final NanoClock clock,
        final RingBuffer commands,
        final RemoteWorkListener listener,
        final ErrorHandler errorHandler,
        final DeepIdle deepIdle) {
        this.deepIdle = deepIdle;
        this.clock = clock;
        this.commands = commands;
        this.listener = listener;
        this.errorHandler = errorHandler;
        this.transport = new AeronTransport(transportSettings, new FrameValidator(frameCounters), traffic, this::onError);
        this.registry = membershipSettings.joinEndpoint() == null ? new Registry(membershipSettings, this) : null;
        this.membership = new MembershipClient(membershipSettings, transport.endpoint(), this, this);
    }

    @Override
    public String roleName() {
        return "divvy-network-" + transport.endpoint();
    }

    @Override
    public void onStart() {
        membership.start(clock.nanoTime());
    }

    @Override
    public int doWork() {
        nowNs = clock.nanoTime();
        int work = 0;
        try {
            work += transport.doDriverWork();
            final int commandsRead = commands.read(this, COMMAND_LIMIT);
            work += commandsRead;
            work += transport.poll(this, FRAGMENT_LIMIT);
            if (registry != null) {
                work += registry.onTick(nowNs);
            }
            work += membership.onTick(nowNs);
            work += listener.onDutyCycle(nowNs);
            work += transport.doOutboundWork(OUTBOUND_LIMIT_PER_LINK);
            // After the listener: it saw this cycle's frames. A worker command is always activity.
            if (commandsRead > 0 || !listener.isQuiet()) {
                deepIdle.onActivity(nowNs);
            } else {
                deepIdle.onQuiet(nowNs);
            }
        } catch (final Throwable t) {
            onError(t);
            work++;
        }
        return work;
    }

    @Override
    public void onClose() {
        transport.close();
    }

    /** Leaves gracefully now; for the owning thread. Workers use {@link NetworkProxy#leave()}. */
    public void leave() {
        membership.leave();
        left = true;
    }

    /** Whether the node is in deep idle (nothing to do for a while); owning thread only. */
    public boolean isDeepIdle() {
        return deepIdle.isDeep();
    }

    /** How many times the node entered deep idle; owning thread only. */
    public long deepIdleEntries() {
        return deepIdle.entries();
    }

    /** Whether this node has sent its LEAVE. */
    public boolean hasLeft() {
        return left;
    }

    /** Whether every outbound queue is empty (for a graceful shutdown to wait on); owning thread only. */
    public boolean isOutboundIdle() {
        return !transport.hasQueued();
    }

    public String endpoint() {
        return transport.endpoint();
    }

    public String aeronDirectoryName() {
        return transport.aeronDirectoryName();
    }

    public MembershipClient membership() {
        return membership;
    }

    /** The registry role if this node hosts it, else null. */
    public Registry registry() {
        return registry;
    }

    public FrameCounters frameCounters() {
        return frameCounters;
    }

    public TrafficCounters traffic() {
        return traffic;
    }

    /** Errors caught in the duty cycle or reported by Aeron. */
    public long errorCount() {
        return errors.get();
    }

    private void onError(final Throwable t) {
        errors.incrementAndGet();
        try {
            errorHandler.onError(t);
        } catch (final Throwable ignore) {
            // The handler must not stop the agent either.
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Worker commands.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onMessage(final int command, final MutableDirectBuffer buffer, final int index, final int length) {
        if (command == NetworkCommand.LEAVE) {
            leave();
            return;
        }
        final int destination = buffer.getInt(index + NetworkCommand.DESTINATION_OFFSET);
        final int frameOffset = index + NetworkCommand.FRAME_OFFSET;
        final int frameLength = length - NetworkCommand.FRAME_OFFSET;
        header.wrap(buffer, frameOffset, frameLength);
        header.senderId(membership.selfId()).epoch(membership.epoch());
        if (header.type() == MessageType.STEAL_REQUEST) {
            buffer.putInt(frameOffset + StealRequestFlyweight.THIEF_ID_OFFSET, membership.selfId(), HeaderFlyweight.BYTE_ORDER);
        }
        if (command == NetworkCommand.BROADCAST) {
            for (final Member member : membership.members()) {
                if (member.isAlive() && member.id() != membership.selfId()) {
                    sendToNode(member.id(), buffer, frameOffset, frameLength);
                }
            }
        } else {
            sendToNode(destination, buffer, frameOffset, frameLength);
        }
    }

    private void sendToNode(final int nodeId, final DirectBuffer buffer, final int offset, final int length) {
        final int type = buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
        final Member member = membership.member(nodeId);
        if (member == null || !member.isAlive()) {
            listener.onUndeliverable(nodeId, type, 1);
            return;
        }
        int link = linkByNodeId.get(nodeId);
        if (link < 0) {
            link = transport.linkTo(member.endpoint());
            linkByNodeId.put(nodeId, link);
        }
        if (!transport.send(link, buffer, offset, length)) {
            listener.onUndeliverable(nodeId, type, 1);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Outbox for membership: by endpoint.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void send(final String endpoint, final DirectBuffer buffer, final int offset, final int length) {
        transport.send(transport.linkTo(endpoint), buffer, offset, length);
    }

    @Override
    public void cut(final String endpoint) {
        final int dropped = transport.closeLink(transport.linkTo(endpoint));
        if (dropped > 0) {
            for (final Member member : membership.members()) {
                if (member.endpoint().equals(endpoint)) {
                    listener.onUndeliverable(member.id(), 0, dropped);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Membership events.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onJoined(final int selfId) {
        listener.onJoined(selfId);
    }

    @Override
    public void onJoinFailed(final String message) {
        listener.onJoinFailed(message);
    }

    @Override
    public void onMemberChanged(final Member member) {
        if (!member.isAlive()) {
            linkByNodeId.remove(member.id());
        }
        listener.onMembershipChange(member);
    }

    @Override
    public void onRegistryLost(final String message) {
        listener.onRegistryLost(message);
    }

    // ---------------------------------------------------------------------------------------------
    // Inbound frames, already validated.
    // ---------------------------------------------------------------------------------------------

    @Override
    public void onFrame(final int type, final DirectBuffer buffer, final int offset, final int length) {
        header.wrap(buffer, offset, length);
        final int senderId = header.senderId();
        switch (type) {
            case MessageType.JOIN:
                if (registry != null) {
                    join.wrap(buffer, offset, length);
                    registry.onJoin(join, nowNs);
                } else {
                    FrameCounters.count(frameCounters.fromUnknownSender);
                }
                return;
            case MessageType.MEMBER_LIST:
                if (senderId == Registry.REGISTRY_ID) {
                    memberList.wrap(buffer, offset, length);
                    membership.onMemberList(memberList, nowNs);
                } else {
                    FrameCounters.count(frameCounters.fromUnknownSender);
                }
                return;
            case MessageType.HEARTBEAT:
                if (senderId == Registry.REGISTRY_ID) {
                    membership.onRegistryHeartbeat(nowNs);
                } else if (registry != null && registry.isAlive(senderId)) {
                    registry.onHeartbeat(senderId, nowNs);
                } else {
                    FrameCounters.count(frameCounters.fromDeadPeer);
                }
                return;
            case MessageType.LEAVE:
                if (registry != null && registry.isAlive(senderId)) {
                    registry.onLeave(senderId);
                } else {
                    FrameCounters.count(frameCounters.fromDeadPeer);
                }
                return;
            default:
                break;
        }
        if (membership.isCut(senderId)) {
            FrameCounters.count(membership.member(senderId) == null ? frameCounters.fromUnknownSender : frameCounters.fromDeadPeer);
            return;
        }
        onWorkFrame(type, senderId, buffer, offset, length);
    }

    private void onWorkFrame(final int type, final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        switch (type) {
            case MessageType.STEAL_REQUEST -> {
                stealRequest.wrap(buffer, offset, length);
                listener.onStealRequest(senderId, stealRequest.requestId(), stealRequest.wideArea());
            }
            case MessageType.STEAL_REPLY -> {
                stealReply.wrap(buffer, offset, length);
                if (stealReply.hasJob()) {
                    listener.onStolenJob(senderId, stealReply.requestId(), stealReply.ownerJobId(), stealReply.jobTypeName(),
                        buffer, offset + stealReply.stampOffset(), stealReply.stampLength(),
                        offset + stealReply.argumentsOffset(), stealReply.argumentsLength());
                } else {
                    listener.onStealFailed(senderId, stealReply.requestId());
                }
            }
            case MessageType.JOB_RESULT -> {
                jobResult.wrap(buffer, offset, length);
                switch (jobResult.outcome()) {
                    case JobResultFlyweight.OUTCOME_VALUE -> listener.onJobResult(
                        senderId, jobResult.ownerJobId(), buffer, offset + jobResult.resultOffset(), jobResult.resultLength());
                    case JobResultFlyweight.OUTCOME_EXCEPTION -> listener.onJobFailed(senderId, jobResult.ownerJobId(),
                        jobResult.exceptionClassName(), jobResult.exceptionMessage(), jobResult.exceptionStackTrace());
                    default -> listener.onJobAborted(senderId, jobResult.ownerJobId());
                }
            }
            case MessageType.ABORT -> {
                abort.wrap(buffer, offset, length);
                for (int i = 0, count = abort.count(); i < count; i++) {
                    listener.onAbort(senderId, abort.jobId(i));
                }
            }
            case MessageType.TERMINATE -> {
                terminate.wrap(buffer, offset, length);
                listener.onTerminate(senderId, terminate.exitCode());
            }
            case MessageType.RUN_STARTED -> listener.onRunStarted(senderId);
            default -> FrameCounters.count(frameCounters.unknownType);
        }
    }
}
