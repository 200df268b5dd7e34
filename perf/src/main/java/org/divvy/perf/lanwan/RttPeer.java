package org.divvy.perf.lanwan;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.node.NetworkNode;
import org.divvy.scheduling.Scheduler;

/**
 * The second process of the steal RTT measurement: a real node (its {@link NetworkNode} on a
 * {@link Scheduler} with 1 idle worker, no run) hosts the registry as node 0, so its real {@code Victim}
 * answers every steal request with "none" (its scheduler has nothing to give); it also echoes raw Aeron
 * pings. Args: {@code divvyPort rawPort peerRawPort}; other node settings come from {@code -Ddivvy.*} properties,
 * as the parent's do. Prints {@code READY} when both ends listen; exits
 * when its standard input closes (the parent ended).
 */
public final class RttPeer {
    /**
     * Deep idle never starts (1 day without work): the victim stays awake like a node during a computation
     * (its agent parks at most 1 ms), as the raw echoer does. In deep idle its agent would park up to the
     * heartbeat interval between requests, since a "none" is no work for the node.
     */
    private static final long NEVER_DEEP_IDLE_MS = TimeUnit.DAYS.toMillis(1);
    private static final long JOIN_WAIT_NS = TimeUnit.SECONDS.toNanos(15);

    private RttPeer() {
    }

    public static void main(final String[] args) throws IOException {
        final int divvyPort = Integer.parseInt(args[0]);
        final int rawPort = Integer.parseInt(args[1]);
        final int peerRawPort = Integer.parseInt(args[2]);
        final NodeConfig net = NodeConfig.fromSystemProperties().toBuilder().networked(true).bind(WanTopology.HOST)
            .port(divvyPort).deepIdleAfterMs(NEVER_DEEP_IDLE_MS).build();
        final Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "divvy-rtt-victim");
        scheduler.start();
        final NetworkNode victim = NetworkNode.builder(net, scheduler).errorHandler(Throwable::printStackTrace).build();
        // Only the measured exchange on the wire: this node does not ask the thief for work (it answers still).
        victim.stopStealing();
        try (scheduler; victim;
            RawPingPong echo = new RawPingPong(WanTopology.HOST + ":" + rawPort, WanTopology.HOST + ":" + peerRawPort, false,
                net.termLengthBytes())) {
            victim.start();
            victim.lifecycle().awaitJoined(JOIN_WAIT_NS);
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // Blocks until the parent closes our stdin or dies.
            }
        }
    }
}
