package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The deep idle settings of {@link NodeConfig}: defaults, properties, validation, the heartbeat cap. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DeepIdleConfigTest {
    private static NodeConfig.Builder networked() {
        return NodeConfig.builder().networked(true);
    }

    @Test
    void shouldHaveTheDocumentedDefaults() {
        final NodeConfig config = networked().build();
        assertEquals(1000, config.deepIdleAfterMs());
        assertEquals(100, config.deepIdleParkMs());
        assertEquals(200, config.deepIdleStealBackoffMs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), config.effectiveDeepIdleParkNs());
    }

    @Test
    void shouldReadThePropertiesAndKeepThemThroughToBuilder() {
        final Properties p = new Properties();
        p.setProperty("divvy.networked", "true");
        p.setProperty(NodeSettings.DEEP_IDLE_AFTER_MS.property(), "500");
        p.setProperty(NodeSettings.DEEP_IDLE_PARK_MS.property(), "30");
        p.setProperty(NodeSettings.DEEP_IDLE_STEAL_BACKOFF_MS.property(), "400");
        final NodeConfig config = NodeConfig.fromProperties(p).toBuilder().build();
        assertEquals(500, config.deepIdleAfterMs());
        assertEquals(30, config.deepIdleParkMs());
        assertEquals(400, config.deepIdleStealBackoffMs());
        assertTrue(config.toString().contains("deepIdleParkMs=30"), config.toString());
    }

    @Test
    void theParkShouldBeCappedAtTheHeartbeatInterval() {
        final NodeConfig config = networked().heartbeatIntervalMs(20).build();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(20), config.effectiveDeepIdleParkNs());
    }

    @Test
    void shouldRejectOutOfRangeValuesNamingValueAndBound() {
        assertEquals("deepIdleAfterMs=0, must be > 0",
            assertThrows(DivvyException.class, () -> networked().deepIdleAfterMs(0).build()).getMessage());
        assertEquals("deepIdleParkMs=0, must be > 0",
            assertThrows(DivvyException.class, () -> networked().deepIdleParkMs(0).build()).getMessage());
        assertEquals("deepIdleStealBackoffMs=19, must be >= 20 (the steal backoff cap while awake)",
            assertThrows(DivvyException.class, () -> networked().deepIdleStealBackoffMs(19).build()).getMessage());
    }
}
