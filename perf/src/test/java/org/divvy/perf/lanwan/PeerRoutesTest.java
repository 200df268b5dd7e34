package org.divvy.perf.lanwan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The peer routes the harness relies on, as the node configuration takes them (the transport sends a
 * routed peer's datagrams to its route: exercised end to end by the WAN relay tests).
 */
@Timeout(10)
class PeerRoutesTest {
    @Test
    void routesShouldBeKeptAsGiven() {
        final Map<String, String> routes = NodeConfig.builder().networked(true)
            .peerRoutes(Map.of("127.0.0.1:21001", "127.0.0.1:40000")).build().peerRoutes();
        assertEquals(Map.of("127.0.0.1:21001", "127.0.0.1:40000"), routes);
    }

    @Test
    void noRoutesByDefault() {
        assertTrue(NodeConfig.builder().networked(true).build().peerRoutes().isEmpty());
    }

    @Test
    void malformedRouteIsRejectedNamingIt() {
        final DivvyException ex = assertThrows(DivvyException.class,
            () -> NodeConfig.builder().networked(true).peerRoutes(Map.of("127.0.0.1:21001", "nowhere")).build());
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
