package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class NetworkConfigTest {
    @Test
    void shouldUseDefaultsAndBuildTransportAndMembershipSettings() {
        final NetworkConfig c = NetworkConfig.builder().build();
        assertEquals("127.0.0.1", c.bindHost());
        assertEquals(0, c.port());
        assertNull(c.join());
        assertEquals("default", c.site());
        assertEquals(StealPolicy.CRS, c.stealPolicy());
        assertNull(c.aeronDirectory());
        final TransportSettings t = TransportSettings.from(c);
        assertEquals(256 * 1024, t.termLengthBytes());
        final MembershipSettings m = MembershipSettings.from(c);
        assertNull(m.joinEndpoint());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), m.heartbeatIntervalNs());
        assertEquals(TimeUnit.SECONDS.toNanos(2), m.heartbeatTimeoutNs());
        assertEquals(TimeUnit.SECONDS.toNanos(10), m.joinTimeoutNs());
    }

    @Test
    void shouldNameValueAndBoundInErrors() {
        assertEquals("heartbeatTimeoutMs=150, must be > 2 * heartbeatIntervalMs=200 or one lost heartbeat kills a node",
            assertThrows(DivvyException.class, () -> NetworkConfig.builder().heartbeatTimeoutMs(150).build()).getMessage());
        assertEquals("port=70000, must be in [0, 65535] (0 = ephemeral)",
            assertThrows(DivvyException.class, () -> NetworkConfig.builder().port(70000).build()).getMessage());
        assertEquals("joinEndpoint=nowhere, must be host:port of the first node",
            assertThrows(DivvyException.class, () -> NetworkConfig.builder().join("nowhere").build()).getMessage());
        assertTrue(assertThrows(DivvyException.class, () -> NetworkConfig.builder().termLengthBytes(1000).build())
            .getMessage().startsWith("termLengthBytes=1000, must be a power of two"));
    }

    @Test
    void shouldReadPropertiesIntoNodeConfig() {
        final Properties p = new Properties();
        p.setProperty(NodeConfig.WORKERS_PROPERTY, "2");
        assertNull(NodeConfig.fromProperties(p).network(), "no network property: a single node");
        p.setProperty(NetworkConfig.JOIN_PROPERTY, "10.0.0.5:40123");
        p.setProperty(NetworkConfig.SITE_PROPERTY, "B");
        p.setProperty(NetworkConfig.STEAL_POLICY_PROPERTY, "rs");
        p.setProperty(NetworkConfig.HEARTBEAT_TIMEOUT_MS_PROPERTY, "5000");
        final NodeConfig c = NodeConfig.fromProperties(p);
        assertEquals("10.0.0.5:40123", c.network().join());
        assertEquals("B", c.network().site());
        assertEquals(StealPolicy.RS, c.network().stealPolicy());
        assertEquals(5000, c.network().heartbeatTimeoutMs());
        final String text = c.describe();
        assertTrue(text.contains("divvy.join") && text.contains("10.0.0.5:40123") && text.contains("divvy.policy"), text);
        assertEquals(c.toString(), c.toBuilder().build().toString());
        p.setProperty(NetworkConfig.STEAL_POLICY_PROPERTY, "fastest");
        assertEquals("divvy.policy=fastest, must be RS or CRS",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(p)).getMessage());
    }
}
