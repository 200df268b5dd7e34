package org.divvy.perf.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** IdleCost reads node settings through NodeConfig's table, as the node processes will. */
@Timeout(10)
class IdleCostTest {
    @Test
    void shouldTakeTheNodeSettingsFromTheDivvyPropertiesOfTheNodeJvms() {
        final NodeConfig config = IdleCost.nodeConfig(List.of("-Xmx64m", "-Ddivvy.workers=2", "-Ddivvy.deepIdleParkMs=20"));
        assertEquals(2, config.workers());
        assertEquals(20, config.deepIdleParkMs());
        assertTrue(config.networked());
    }

    @Test
    void shouldRejectABadSettingBeforeAnyNodeStarts() {
        assertEquals("divvy.deepIdleParkMs=0, must be > 0", assertThrows(DivvyException.class,
            () -> IdleCost.nodeConfig(List.of("-Ddivvy.deepIdleParkMs=0"))).getMessage());
        assertTrue(assertThrows(DivvyException.class, () -> IdleCost.nodeConfig(List.of("-Ddivvy.net.deepIdleParkMs=20")))
            .getMessage().contains("here divvy.deepIdleParkMs"));
    }
}
