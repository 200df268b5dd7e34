package org.divvy.node;

import java.util.ArrayList;
import java.util.List;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.agent.DeepIdle;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.agent.MessageHandler;
import org.divvy.agent.NetworkAgent;
import org.divvy.agent.NetworkService;
import org.divvy.agent.NodeIdleStrategy;
import org.divvy.agent.Outbound;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipClient;
import org.divvy.membership.MembershipListener;
import org.divvy.membership.MembershipMessages;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.security.FrameAuthenticator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.ChunkFlyweight;
import org.divvy.transport.ReceiveGuardCounters;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.Transport;

/**
 * A member that runs no jobs: membership only, plus the message handlers and duties a tool registers
 * before {@link #start()}. Benchmarks use it to time one protocol exchange against real nodes, and tests
 * to play a hand-written peer (one that answers a steal with a job of an unknown type, say). It joins like
 * any node, so real nodes treat it as a member.
 *
 * <p>Registration happens on the thread that builds it, before {@link #start()}; then handlers and duties
 * run on the agent thread, where {@link #sender()} and {@link #members()} may be used.
 */
public final class ProtocolPeer implements AutoCloseable {
    private final Transport transport;
    private final FrameCounters frameCounters;
    private final Members members;
    private final Outbound outbound;
    private final FrameDispatcher dispatcher;
    private final MembershipClient membership;
    private final List<Duty> duties = new ArrayList<>();
    private final CachedNanoClock cycleClock = new CachedNanoClock();
    private final NanoClock clock;
    private final ErrorHandler errorHandler;
    private NetworkAgent agent;
    private NetworkService service;

    /**
     * @param config   its address, the node to join and the membership timings.
     * @param listener told of this peer's join, the members and a lost registry (on the agent thread).
     */
    public ProtocolPeer(final NodeConfig config, final MembershipListener listener, final NanoClock clock,
        final ErrorHandler errorHandler) {
        this.frameCounters = new FrameCounters();
        this.transport = new AeronTransport(config, new FrameValidator(frameCounters), new TrafficCounters(),
            FrameAuthenticator.of(config, MembershipMessages::isHandshakeType), errorHandler);
        this.clock = clock;
        this.errorHandler = errorHandler;
        members = new Members(config.site());
        outbound = new Outbound(transport, members, transport.maxMessageBytes());
        dispatcher = new FrameDispatcher(frameCounters, members, errorHandler);
        dispatcher.reserve(ChunkFlyweight.TYPE, "CHUNK");
        dispatcher.reserve(AeronTransport.PROBE_TYPE, "STREAM_PROBE");
        dispatcher.reserve(AeronTransport.CONTINUES_TYPE, "STREAM_CONTINUES");
        if (config.join() == null) {
            throw new DivvyException("a protocol peer joins a running node: give its configuration a join address");
        }
        membership = new MembershipClient(config, transport.endpoint(), members, outbound, List.of(listener), new byte[0],
            transport::useRunKey);
        MembershipMessages.registerNode(dispatcher, membership, null, cycleClock);
    }

    /** Registers a handler for a message type from alive members (see {@link FrameDispatcher#register}). */
    public ProtocolPeer handle(final int type, final String name, final HeaderFlyweight body, final int minBodyLength,
        final MessageHandler handler) {
        checkNotStarted();
        dispatcher.register(type, name, body, minBodyLength, Senders.MEMBERS, handler);
        return this;
    }

    /** Adds a duty, run each cycle after membership's. */
    public ProtocolPeer duty(final Duty duty) {
        checkNotStarted();
        duties.add(duty);
        return this;
    }

    /** Runs the agent on its own thread, always awake (parks at most a node's 1 ms); the peer starts joining. */
    public void start() {
        checkNotStarted();
        final DeepIdle neverDeep = new DeepIdle(Long.MAX_VALUE);
        final NetworkAgent.Builder builder = NetworkAgent.builder().transport(transport).clock(clock, cycleClock)
            .dispatcher(dispatcher).deepIdle(neverDeep).errorHandler(errorHandler)
            .onStart(() -> membership.start(cycleClock.nanoTime())).duty(membership);
        duties.forEach(builder::duty);
        agent = builder.build();
        service = NetworkService.start(agent, new NodeIdleStrategy(neverDeep, NodeIdleStrategy.AWAKE_MAX_PARK_NS, NodeIdleStrategy.AWAKE_MAX_PARK_NS),
            errorHandler);
    }

    /** Sends on the agent thread only (inside handlers and duties). */
    public FrameSender sender() {
        return outbound;
    }

    /** The member table; agent thread only. */
    public Members members() {
        return members;
    }

    public String endpoint() {
        return transport.endpoint();
    }

    /** Its embedded (or external) Aeron driver's directory. */
    public String aeronDirectoryName() {
        return transport.aeronDirectoryName();
    }

    public FrameCounters frameCounters() {
        return frameCounters;
    }

    public TrafficCounters traffic() {
        return transport.traffic();
    }

    /** What the embedded driver's receive guard refused, by reason, and the streams it receives; any thread. */
    public ReceiveGuardCounters receiveGuard() {
        return transport.receiveGuard();
    }

    /** Leaves gracefully (best effort, bounded), then stops the agent thread and closes the transport. */
    @Override
    public void close() {
        if (service != null) {
            NetworkNode.leaveGracefully(membership, service);
            service.close();
        } else {
            transport.close();
        }
    }

    private void checkNotStarted() {
        if (agent != null) {
            throw new DivvyException("register handlers and duties before start()");
        }
    }
}
