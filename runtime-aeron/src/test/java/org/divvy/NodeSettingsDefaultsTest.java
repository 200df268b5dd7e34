package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.divvy.agent.NodeIdleStrategy;
import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The table's defaults are literals, no longer read from the classes that use them; this test pins
 * them to the values the runtime itself used when the table took them over (its own constants and the
 * defaults of its settings records). A change on either side fails here, so a merge that moves or
 * deletes a runtime constant cannot silently change a node's behaviour.
 */
@Timeout(10)
class NodeSettingsDefaultsTest {
    private static long ns(final Setting<Long> ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms.defaultValue());
    }

    @Test
    void theDefaultConfigurationShouldGiveTheRuntimesDefaultSettingsRecords() {
        final NodeConfig defaults = NodeConfig.builder().networked(true).build();
        assertEquals(TransportSettings.builder().build(), defaults.transportSettings());
        assertEquals(MembershipSettings.builder().build(), defaults.membershipSettings());
    }

    @Test
    void networkDefaultsShouldEqualTheRuntimesConstants() {
        assertEquals(TransportSettings.DEFAULT_HOST, NodeSettings.BIND.defaultValue());
        assertEquals(TransportSettings.DEFAULT_TERM_LENGTH_BYTES, NodeSettings.TERM_LENGTH_BYTES.defaultValue());
        assertEquals(MembershipSettings.DEFAULT_SITE, NodeSettings.SITE.defaultValue());
        assertEquals(MembershipSettings.DEFAULT_HEARTBEAT_INTERVAL_NS, ns(NodeSettings.HEARTBEAT_INTERVAL_MS));
        assertEquals(MembershipSettings.DEFAULT_HEARTBEAT_TIMEOUT_NS, ns(NodeSettings.HEARTBEAT_TIMEOUT_MS));
        assertEquals(MembershipSettings.DEFAULT_JOIN_TIMEOUT_NS, ns(NodeSettings.JOIN_TIMEOUT_MS));
        assertEquals(MembershipSettings.DEFAULT_JOIN_RETRY_INTERVAL_NS, ns(NodeSettings.JOIN_RETRY_INTERVAL_MS));
        assertEquals(StealPolicy.CRS, NodeSettings.POLICY.defaultValue());
    }

    @Test
    void boundsTakenFromTheRuntimeShouldEqualItsConstants() {
        assertEquals("must be a power of two in [" + TransportSettings.MIN_TERM_LENGTH_BYTES + ", " +
            TransportSettings.MAX_TERM_LENGTH_BYTES + "]", NodeSettings.TERM_LENGTH_BYTES.violation(3));
        // the shortest deep-idle park a configuration can give is the agent's awake park, its lower bound
        final NodeConfig shortHeartbeat = NodeConfig.builder().networked(true).heartbeatIntervalMs(1).heartbeatTimeoutMs(100)
            .deepIdleParkMs(1).build();
        assertEquals(NodeIdleStrategy.AWAKE_MAX_PARK_NS, shortHeartbeat.effectiveDeepIdleParkNs());
    }

    @Test
    void workerDefaultsShouldEqualTheValuesNodeConfigHadBeforeTheTable() {
        assertEquals(Runtime.getRuntime().availableProcessors(), NodeSettings.WORKERS.defaultValue());
        assertEquals(100, NodeSettings.IDLE_SPIN_COUNT.defaultValue());
        assertEquals(10, NodeSettings.IDLE_YIELD_COUNT.defaultValue());
        assertEquals(1_000L, NodeSettings.IDLE_PARK_MIN_NS.defaultValue());
        assertEquals(1_000_000L, NodeSettings.IDLE_PARK_MAX_NS.defaultValue());
        assertEquals(50_000_000L, NodeSettings.IDLE_DEEP_PARK_NS.defaultValue());
        assertEquals(16L * 1024 * 1024, NodeSettings.WORKER_STACK_SIZE_BYTES.defaultValue());
    }
}
