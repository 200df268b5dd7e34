package org.divvy.perf.lanwan;

import java.io.IOException;

import org.divvy.NodeConfig;
import org.divvy.agent.NetworkService;

/**
 * The second process of the steal RTT measurement: hosts the registry as node 0, answers every steal
 * request with "none", and echoes raw Aeron pings. Args: {@code divvyPort rawPort peerRawPort}; node
 * settings come from {@code -Ddivvy.*} properties, as the parent's do. Prints
 * {@code READY} when both ends listen; exits when its standard input closes (the parent ended).
 */
public final class RttPeer {
    private RttPeer() {
    }

    public static void main(final String[] args) throws IOException {
        final int divvyPort = Integer.parseInt(args[0]);
        final int rawPort = Integer.parseInt(args[1]);
        final int peerRawPort = Integer.parseInt(args[2]);
        final NodeConfig net = NodeConfig.fromSystemProperties().toBuilder().networked(true).bind(WanTopology.HOST)
            .port(divvyPort).build();
        final StealRttListener victim = new StealRttListener(false);
        try (NetworkService service = NetworkService.start(net.transportSettings(), net.membershipSettings(),
                NetworkService.DEFAULT_COMMAND_RING_BYTES, victim, Throwable::printStackTrace);
            RawPingPong echo = new RawPingPong(WanTopology.HOST + ":" + rawPort, WanTopology.HOST + ":" + peerRawPort, false,
                net.termLengthBytes())) {
            victim.proxy(service.newAgentThreadProxy());
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // Blocks until the parent closes our stdin or dies.
            }
        }
    }
}
