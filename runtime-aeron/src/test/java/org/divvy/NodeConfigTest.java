package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class NodeConfigTest {
    private static String error(final NodeConfig.Builder builder) {
        return assertThrows(DivvyException.class, builder::build).getMessage();
    }

    private static NodeConfig.Builder networked() {
        return NodeConfig.builder().networked(true);
    }

    @Test
    void shouldUseDefaults() {
        final NodeConfig c = NodeConfig.builder().build();
        assertEquals(Runtime.getRuntime().availableProcessors(), c.workers());
        assertEquals(100, c.idleSpinCount());
        assertEquals(10, c.idleYieldCount());
        assertEquals(1_000L, c.idleParkMinNs());
        assertEquals(1_000_000L, c.idleParkMaxNs());
        assertEquals(50_000_000L, c.idleDeepParkNs());
        assertEquals(16L * 1024 * 1024, c.workerStackSizeBytes());
        assertFalse(c.networked());
        assertEquals("127.0.0.1", c.bind());
        assertEquals(0, c.port());
        assertNull(c.join());
        assertEquals("default", c.site());
        assertEquals(StealPolicy.CRS, c.policy());
        assertNull(c.aeronDirectory());
        assertEquals(Map.of(), c.peerRoutes());
    }

    @Test
    void shouldNameValueAndBoundInErrors() {
        assertEquals("workers=0, must be in [1, 1024]", error(NodeConfig.builder().workers(0)));
        assertEquals("idleSpinCount=-1, must be >= 0", error(NodeConfig.builder().idleSpinCount(-1)));
        assertEquals("idleYieldCount=-2, must be >= 0", error(NodeConfig.builder().idleYieldCount(-2)));
        assertEquals("idleParkMinNs=0, must be in [1, 1000000000]", error(NodeConfig.builder().idleParkMinNs(0)));
        assertEquals("workerStackSizeBytes=1024, must be >= 65536", error(NodeConfig.builder().workerStackSizeBytes(1024)));
        assertEquals("acceptableHeartbeatPauseMs=0, must be > 0", error(networked().acceptableHeartbeatPauseMs(0)));
        assertEquals("failurePhiThreshold=0, must be in [1, 100]", error(networked().failurePhiThreshold(0)));
        assertEquals("port=70000, must be in [0, 65535]", error(networked().port(70000)));
        assertEquals("join=nowhere, must be HOST:PORT with a port in [1, 65535], e.g. 192.168.1.10:40123",
            error(networked().join("nowhere")));
        assertEquals("bind=10.0.0.1:5, must be a host name or IPv4 address without a port", error(networked().bind("10.0.0.1:5")));
        assertEquals("site=a b, must be 1 to 64 letters, digits, '-', '_' or '.'", error(networked().site("a b")));
        assertEquals("policy=none, must be RS or CRS or LCRS", error(networked().policy(null)));
        assertEquals("termLengthBytes=1000, must be a power of two in [65536, 1073741824]", error(networked().termLengthBytes(1000)));
        assertTrue(error(networked().peerRoutes(Map.of("127.0.0.1:1", "nowhere"))).startsWith(
            "peerRoutes=127.0.0.1:1=nowhere, must map HOST:PORT to HOST:PORT"));
    }

    @Test
    void shouldCheckAcrossSettingsInBuild() {
        assertEquals("idleParkMaxNs=500, must be >= idleParkMinNs=1000", error(NodeConfig.builder().idleParkMaxNs(500)));
        assertEquals("idleDeepParkNs=10, must be >= idleParkMaxNs=1000000", error(NodeConfig.builder().idleDeepParkNs(10)));
        assertEquals("acceptableHeartbeatPauseMs=150, must be > 2 * heartbeatIntervalMs=200 or one lost heartbeat kills a node",
            error(networked().acceptableHeartbeatPauseMs(150)));
    }

    @Test
    void shouldRejectANetworkSettingOnASingleNodeInsteadOfIgnoringIt() {
        assertEquals("site=B is a network setting, but networked=false: set networked=true (divvy.networked, "
            + "--networked) or leave site at its default default", error(NodeConfig.builder().site("B")));
        assertEquals("B", networked().site("B").build().site());
    }

    @Test
    void shouldReadProperties() {
        final Properties p = new Properties();
        final int workers = Runtime.getRuntime().availableProcessors() == 3 ? 4 : 3; // not the default
        p.setProperty("divvy.workers", String.valueOf(workers));
        p.setProperty("divvy.idleParkMaxNs", "2000000");
        p.setProperty("divvy.workerStackSizeBytes", "1048576");
        final NodeConfig single = NodeConfig.fromProperties(p);
        assertEquals(workers, single.workers());
        assertEquals(2_000_000L, single.idleParkMaxNs());
        assertEquals(1_048_576L, single.workerStackSizeBytes());
        assertEquals(100, single.idleSpinCount());
        assertFalse(single.networked());
        p.setProperty("divvy.networked", "true");
        p.setProperty("divvy.join", "10.0.0.5:40123");
        p.setProperty("divvy.site", "B");
        p.setProperty("divvy.policy", "rs");
        p.setProperty("divvy.acceptableHeartbeatPauseMs", "5000");
        p.setProperty("divvy.peerRoutes", "127.0.0.1:21001=127.0.0.1:40000, 127.0.0.1:21002=127.0.0.1:40001");
        final NodeConfig c = NodeConfig.fromProperties(p);
        assertEquals("10.0.0.5:40123", c.join());
        assertEquals("B", c.site());
        assertEquals(StealPolicy.RS, c.policy());
        assertEquals(5000, c.acceptableHeartbeatPauseMs());
        assertEquals(Map.of("127.0.0.1:21001", "127.0.0.1:40000", "127.0.0.1:21002", "127.0.0.1:40001"), c.peerRoutes());
        assertEquals(c, c.toBuilder().build());
        assertEquals(c, NodeConfig.fromProperties(c.toProperties()));
        assertEquals(Set.of("divvy.workers", "divvy.idleParkMaxNs", "divvy.workerStackSizeBytes", "divvy.networked",
            "divvy.join", "divvy.site", "divvy.policy", "divvy.acceptableHeartbeatPauseMs", "divvy.peerRoutes"),
            c.toProperties().stringPropertyNames(), "only the values that differ from the defaults");
    }

    @Test
    void shouldNameThePropertyInErrors() {
        final Properties p = new Properties();
        p.setProperty("divvy.workers", "many");
        assertEquals("divvy.workers=many, must be an integer",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(p)).getMessage());
        p.setProperty("divvy.workers", "0");
        assertEquals("divvy.workers=0, must be in [1, 1024]",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(p)).getMessage());
        final Properties policy = new Properties();
        policy.setProperty("divvy.policy", "fastest");
        assertEquals("divvy.policy=fastest, must be RS or CRS or LCRS",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(policy)).getMessage());
    }

    @Test
    void shouldRejectAPropertyThatNamesNoSettingAndSuggestTheRightOne() {
        final Properties p = new Properties();
        p.setProperty("divvy.heartbeat.intervalMs", "50");
        assertEquals("divvy.heartbeat.intervalMs is not a Divvy setting: properties are divvy.<setting name>, here "
            + "divvy.heartbeatIntervalMs (NodeSettings lists them)",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(p)).getMessage());
        final Properties other = new Properties();
        other.setProperty("divvy.host", "10.0.0.1");
        assertTrue(assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(other)).getMessage()
            .startsWith("divvy.host is not a Divvy setting"));
    }

    @Test
    void shouldDescribeEffectiveConfiguration() {
        final NodeConfig single = NodeConfig.builder().workers(7).build();
        final String text = single.describe();
        assertTrue(text.contains("single node") && text.matches("(?s).*\\n  workers +7 .*"), text);
        assertTrue(text.contains("workerStackSizeBytes") && !text.contains("acceptableHeartbeatPauseMs"), text);
        final String net = networked().acceptableHeartbeatPauseMs(5000).build().describe();
        assertTrue(net.matches("(?s).*\\n  acceptableHeartbeatPauseMs +5000 +\\(default 7000\\).*"), net);
        assertTrue(net.matches("(?s).*\\n  join +none\\R.*"), net);
        assertTrue(single.toString().contains("workers=7"), single.toString());
        assertEquals(single.toString(), single.toBuilder().build().toString());
    }

    @Test
    void shouldKeepACallersMapOutOfTheImmutableConfiguration() {
        final Map<String, String> routes = new HashMap<>(Map.of("127.0.0.1:21001", "127.0.0.1:40000"));
        final NodeConfig c = networked().peerRoutes(routes).build();
        routes.clear();
        assertEquals(1, c.peerRoutes().size());
        assertThrows(UnsupportedOperationException.class, () -> c.peerRoutes().clear());
        assertNotEquals(c, networked().build());
    }
}
