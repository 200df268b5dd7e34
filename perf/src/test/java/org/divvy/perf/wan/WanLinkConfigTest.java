package org.divvy.perf.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class WanLinkConfigTest {
    @Test
    void shouldRejectEachInvalidValueNamingValueAndBound() {
        assertMessage("oneWayDelayNs=-1, must be >= 0", WanLinkConfig.builder().oneWayDelayNs(-1));
        assertMessage("jitterNs=11, must be in [0, oneWayDelayNs=10]", WanLinkConfig.builder().oneWayDelayNs(10).jitterNs(11));
        assertMessage("bandwidthBytesPerSecond=-5, must be >= 0 (0 = unlimited)",
            WanLinkConfig.builder().bandwidthBytesPerSecond(-5));
        assertMessage("burstBytes=0, must be >= 1", WanLinkConfig.builder().burstBytes(0));
        assertMessage("queueLimitBytes=0, must be >= 1", WanLinkConfig.builder().queueLimitBytes(0));
        assertMessage("lossRate=1.0, must be in [0, 1)", WanLinkConfig.builder().lossRate(1.0));
        assertMessage("lossRate=NaN, must be in [0, 1)", WanLinkConfig.builder().lossRate(Double.NaN));
    }

    @Test
    void shouldDefaultToAPerfectLink() {
        final WanLinkConfig config = WanLinkConfig.perfect();
        assertEquals(0, config.oneWayDelayNs());
        assertEquals(0, config.jitterNs());
        assertEquals(0, config.bandwidthBytesPerSecond());
        assertEquals(0.0, config.lossRate());
    }

    private static void assertMessage(final String expected, final WanLinkConfig.Builder builder) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, builder::build).getMessage());
    }
}
