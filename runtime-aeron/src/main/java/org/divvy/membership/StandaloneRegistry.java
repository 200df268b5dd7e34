package org.divvy.membership;

import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.JoinFlyweight;
import org.divvy.protocol.MessageType;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.TransportSettings;

/**
 * A {@link Registry} on its own transport, for a registry process that runs no jobs (a later
 * {@code divvy registry} command): run it on an {@link org.agrona.concurrent.AgentRunner} or step it.
 * Nodes join it at {@link #endpoint()}. Owned by the thread that runs it.
 */
public final class StandaloneRegistry implements Agent, Outbox {
    private final NanoClock clock;
    private final ErrorHandler errorHandler;
    private final AtomicLong errors = new AtomicLong();
    private final FrameCounters frameCounters = new FrameCounters();
    private final AeronTransport transport;
    private final Registry registry;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final JoinFlyweight join = new JoinFlyweight();
    private long nowNs;

    public StandaloneRegistry(
        final TransportSettings transportSettings, final MembershipSettings membershipSettings, final NanoClock clock,
        final ErrorHandler errorHandler) {
        this.clock = clock;
        this.errorHandler = errorHandler;
        this.transport = new AeronTransport(transportSettings, new FrameValidator(frameCounters), new TrafficCounters(), this::onError);
        this.registry = new Registry(membershipSettings, this);
    }

    /** Where nodes join: pass it as their join endpoint. */
    public String endpoint() {
        return transport.endpoint();
    }

    public Registry registry() {
        return registry;
    }

    public FrameCounters frameCounters() {
        return frameCounters;
    }

    @Override
    public String roleName() {
        return "divvy-registry-" + transport.endpoint();
    }

    @Override
    public int doWork() {
        nowNs = clock.nanoTime();
        int work = 0;
        try {
            work += transport.doDriverWork();
            work += transport.poll(this::onFrame, 64);
            work += registry.onTick(nowNs);
            work += transport.doOutboundWork(64);
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

    private void onFrame(final int type, final DirectBuffer buffer, final int offset, final int length) {
        header.wrap(buffer, offset, length);
        final int senderId = header.senderId();
        if (type == MessageType.JOIN) {
            join.wrap(buffer, offset, length);
            registry.onJoin(join, nowNs);
        } else if ((type == MessageType.HEARTBEAT || type == MessageType.LEAVE) && registry.isAlive(senderId)) {
            if (type == MessageType.HEARTBEAT) {
                registry.onHeartbeat(senderId, nowNs);
            } else {
                registry.onLeave(senderId);
            }
        } else {
            FrameCounters.count(frameCounters.fromDeadPeer);
        }
    }

    @Override
    public void send(final String endpoint, final DirectBuffer buffer, final int offset, final int length) {
        transport.send(transport.linkTo(endpoint), buffer, offset, length);
    }

    @Override
    public void cut(final String endpoint) {
        transport.closeLink(transport.linkTo(endpoint));
    }

    private void onError(final Throwable t) {
        errors.incrementAndGet();
        try {
            errorHandler.onError(t);
        } catch (final Throwable ignore) {
            // Must not stop the agent.
        }
    }
}
