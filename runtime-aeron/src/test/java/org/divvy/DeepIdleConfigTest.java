package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The deep idle options of {@link NetworkConfig}: defaults, properties, validation, the heartbeat cap. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DeepIdleConfigTest {
    @Test
    void shouldHaveTheDocumentedDefaults() {
        final NetworkConfig config = NetworkConfig.builder().build();
        assertEquals(1000, config.deepIdleAfterMs());
        assertEquals(100, config.deepIdleParkMs());
        assertEquals(200, config.deepIdleStealBackoffMs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), config.effectiveDeepIdleParkNs());
    }

    @Test
    void shouldReadThePropertiesAndKeepThemThroughToBuilder() {
        final Properties p = new Properties();
        p.setProperty(NetworkConfig.DEEP_IDLE_AFTER_MS_PROPERTY, "500");
        p.setProperty(NetworkConfig.DEEP_IDLE_PARK_MS_PROPERTY, "30");
        p.setProperty(NetworkConfig.DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY, "400");
        final NetworkConfig config = NetworkConfig.fromProperties(p).toBuilder().build();
        assertEquals(500, config.deepIdleAfterMs());
        assertEquals(30, config.deepIdleParkMs());
        assertEquals(400, config.deepIdleStealBackoffMs());
        assertTrue(config.toString().contains("deepIdleParkMs=30"), config.toString());
    }

    @Test
    void theParkShouldBeCappedAtTheHeartbeatInterval() {
        final NetworkConfig config = NetworkConfig.builder().heartbeatIntervalMs(20).heartbeatTimeoutMs(500).build();
        assertEquals(TimeUnit.MILLISECONDS.toNanos(20), config.effectiveDeepIdleParkNs());
    }

    @Test
    void shouldRejectOutOfRangeValuesNamingValueAndBound() {
        final DivvyException after = assertThrows(DivvyException.class, () -> NetworkConfig.builder().deepIdleAfterMs(0).build());
        assertTrue(after.getMessage().contains("deepIdleAfterMs=0"), after.getMessage());
        final DivvyException park = assertThrows(DivvyException.class, () -> NetworkConfig.builder().deepIdleParkMs(0).build());
        assertTrue(park.getMessage().contains("deepIdleParkMs=0"), park.getMessage());
        final DivvyException backoff = assertThrows(DivvyException.class,
            () -> NetworkConfig.builder().deepIdleStealBackoffMs(19).build());
        assertTrue(backoff.getMessage().contains("deepIdleStealBackoffMs=19") && backoff.getMessage().contains(">= 20"),
            backoff.getMessage());
    }
}
