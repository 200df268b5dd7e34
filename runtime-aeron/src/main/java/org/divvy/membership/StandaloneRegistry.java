package org.divvy.membership;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.NanoClock;
import org.divvy.NodeConfig;
import org.divvy.agent.DeepIdle;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.NetworkAgent;
import org.divvy.agent.Outbound;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.security.FrameAuthenticator;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.Transport;

/**
 * A {@link Registry} on its own transport, for a registry process that runs no jobs ({@code divvy
 * registry}): a {@link NetworkAgent} with only the registry's messages and duty. Run it on an
 * {@link org.agrona.concurrent.AgentRunner} or step it. Nodes join it at {@link #endpoint()}. Owned by
 * the thread that runs it.
 */
public final class StandaloneRegistry implements Agent {
    private final Transport transport;
    private final Registry registry;
    private final RootKeeper rootKeeper;
    private final FrameCounters frameCounters;
    private final NetworkAgent agent;

    /** @param transport this registry's own; closed with it. */
    public StandaloneRegistry(final Transport transport, final FrameCounters frameCounters,
        final NodeConfig config, final NanoClock clock, final ErrorHandler errorHandler) {
        this.transport = transport;
        this.frameCounters = frameCounters;
        final CachedNanoClock cycleClock = new CachedNanoClock();
        // The registry sends by endpoint only, so its sender needs no member table: an empty one.
        final Outbound outbound = new Outbound(transport, new Members(""), transport.maxMessageBytes());
        this.registry = new Registry(config, outbound, transport.endpoint(), new byte[0], transport.endpointsAreUdpPorts());
        transport.useRunKey(registry.runKeyId());
        transport.lossListener(registry); // messages lost between a member and this registry: the member goes
        final FrameDispatcher dispatcher = new FrameDispatcher(frameCounters, null, errorHandler);
        MembershipMessages.registerRegistry(dispatcher, registry, cycleClock);
        this.rootKeeper = new RootKeeper(registry, outbound, frameCounters);
        rootKeeper.register(dispatcher);
        this.agent = NetworkAgent.builder().transport(transport).clock(clock, cycleClock).dispatcher(dispatcher)
            .duty(registry).duty(rootKeeper).deepIdle(new DeepIdle(Long.MAX_VALUE)).errorHandler(errorHandler).build();
    }

    /**
     * A registry on a new {@link AeronTransport}, bound to {@code config}'s address, with its heartbeat
     * interval and timeout.
     */
    public static StandaloneRegistry launch(final NodeConfig config, final NanoClock clock, final ErrorHandler errorHandler) {
        final FrameCounters counters = new FrameCounters();
        final AeronTransport transport = new AeronTransport(config, new FrameValidator(counters), new TrafficCounters(),
            FrameAuthenticator.of(config, MembershipMessages::isHandshakeType), errorHandler);
        return new StandaloneRegistry(transport, counters, config, clock, errorHandler);
    }

    /** Where nodes join: pass it as their join endpoint. */
    public String endpoint() {
        return transport.endpoint();
    }

    public Registry registry() {
        return registry;
    }

    /** The roots of the runs under way, and their masters. */
    public RootKeeper rootKeeper() {
        return rootKeeper;
    }

    public FrameCounters frameCounters() {
        return frameCounters;
    }

    @Override
    public String roleName() {
        return "divvy-registry-" + transport.endpoint();
    }

    @Override
    public void onStart() {
        agent.onStart();
    }

    @Override
    public int doWork() {
        return agent.doWork();
    }

    @Override
    public void onClose() {
        agent.onClose();
    }
}
