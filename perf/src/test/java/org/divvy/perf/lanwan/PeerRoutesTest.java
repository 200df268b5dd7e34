package org.divvy.perf.lanwan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.divvy.DivvyException;
import org.divvy.NetworkConfig;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The transport's endpoint rewrite the harness relies on: routed peers go via the route, others directly. */
@Timeout(10)
class PeerRoutesTest {
    @Test
    void routedPeerIsSentToItsRouteOthersDirectly() {
        final TransportSettings settings = TransportSettings.from(NetworkConfig.builder()
            .peerRoutes(Map.of("127.0.0.1:21001", "127.0.0.1:40000")).build());
        assertEquals("127.0.0.1:40000", settings.sendEndpoint("127.0.0.1:21001"));
        assertEquals("127.0.0.1:21002", settings.sendEndpoint("127.0.0.1:21002"));
    }

    @Test
    void noRoutesByDefault() {
        assertTrue(TransportSettings.from(NetworkConfig.builder().build()).peerRoutes().isEmpty());
    }

    @Test
    void malformedRouteIsRejectedNamingIt() {
        final DivvyException ex = assertThrows(DivvyException.class,
            () -> TransportSettings.builder().peerRoutes(Map.of("127.0.0.1:21001", "nowhere")).build());
        assertTrue(ex.getMessage().contains("nowhere"), ex.getMessage());
    }

    @Test
    void topologyRoutesEveryOtherSiteNodeAndNoSameSiteNode() {
        final WanTopology topology = new WanTopology(2, 2, 23300);
        try (var relay = topology.startRelay(1)) {
            final Map<String, String> routes = topology.routesOf(0, relay);
            assertEquals(2, routes.size());
            assertTrue(routes.containsKey(topology.endpoint(2)) && routes.containsKey(topology.endpoint(3)));
        }
    }
}
