package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.divvy.agent.NodeIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The table's defaults are literals and the only ones (the runtime's classes read the configuration and
 * keep no defaults of their own); this test pins them to the values the runtime used before the table
 * took them over, so a default changes only on purpose.
 */
@Timeout(10)
class NodeSettingsDefaultsTest {
    private static long ns(final Setting<Long> ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms.defaultValue());
    }

    @Test
    void networkDefaultsShouldEqualTheValuesTheRuntimeUsedBeforeTheTable() {
        assertEquals("127.0.0.1", NodeSettings.BIND.defaultValue());
        assertEquals(256 * 1024, NodeSettings.TERM_LENGTH_BYTES.defaultValue());
        assertEquals("default", NodeSettings.SITE.defaultValue());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), ns(NodeSettings.HEARTBEAT_INTERVAL_MS));
        assertEquals(TimeUnit.SECONDS.toNanos(7), ns(NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS));
        assertEquals(8, NodeSettings.FAILURE_PHI_THRESHOLD.defaultValue());
        assertEquals(TimeUnit.SECONDS.toNanos(10), ns(NodeSettings.JOIN_TIMEOUT_MS));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(200), ns(NodeSettings.JOIN_RETRY_INTERVAL_MS));
        assertEquals(TimeUnit.SECONDS.toNanos(1), ns(NodeSettings.DEEP_IDLE_AFTER_MS));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), ns(NodeSettings.DEEP_IDLE_PARK_MS));
        assertEquals(200L, NodeSettings.DEEP_IDLE_STEAL_BACKOFF_MS.defaultValue());
        assertEquals(0L, NodeSettings.DEEP_IDLE_VICTIM_HOLD_MS.defaultValue());
        assertEquals(StealPolicy.CRS, NodeSettings.POLICY.defaultValue());
    }

    @Test
    void theShortestDeepIdleParkShouldBeTheAgentsAwakePark() {
        // the shortest deep-idle park a configuration can give is the agent's awake park, its lower bound
        final NodeConfig shortHeartbeat = NodeConfig.builder().networked(true).heartbeatIntervalMs(1)
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
