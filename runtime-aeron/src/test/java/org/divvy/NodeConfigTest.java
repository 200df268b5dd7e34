package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class NodeConfigTest {
    @Test
    void shouldUseDefaults() {
        final NodeConfig c = NodeConfig.builder().build();
        assertEquals(NodeConfig.DEFAULT_WORKERS, c.workers());
        assertEquals(NodeConfig.DEFAULT_IDLE_SPIN_COUNT, c.idleSpinCount());
        assertEquals(NodeConfig.DEFAULT_IDLE_YIELD_COUNT, c.idleYieldCount());
        assertEquals(NodeConfig.DEFAULT_IDLE_PARK_MIN_NS, c.idleParkMinNs());
        assertEquals(NodeConfig.DEFAULT_IDLE_PARK_MAX_NS, c.idleParkMaxNs());
        assertEquals(NodeConfig.DEFAULT_IDLE_DEEP_PARK_NS, c.idleDeepParkNs());
        assertEquals(16L * 1024 * 1024, c.workerStackSizeBytes());
    }

    @Test
    void shouldNameValueAndBoundInErrors() {
        assertEquals("workers=0, must be >= 1",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().workers(0).build()).getMessage());
        assertEquals("idleSpinCount=-1, must be >= 0",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().idleSpinCount(-1).build()).getMessage());
        assertEquals("idleYieldCount=-2, must be >= 0",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().idleYieldCount(-2).build()).getMessage());
        assertEquals("idleParkMinNs=0, must be >= 1",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().idleParkMinNs(0).build()).getMessage());
        assertEquals("idleParkMaxNs=500, must be >= idleParkMinNs=1000",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().idleParkMaxNs(500).build()).getMessage());
        assertEquals("idleDeepParkNs=10, must be >= idleParkMaxNs=1000000",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().idleDeepParkNs(10).build()).getMessage());
        assertEquals("workerStackSizeBytes=1024, must be >= 65536",
            assertThrows(DivvyException.class, () -> NodeConfig.builder().workerStackSizeBytes(1024).build()).getMessage());
    }

    @Test
    void shouldReadProperties() {
        final Properties p = new Properties();
        p.setProperty(NodeConfig.WORKERS_PROPERTY, "3");
        p.setProperty(NodeConfig.IDLE_PARK_MAX_NS_PROPERTY, "2000000");
        p.setProperty(NodeConfig.WORKER_STACK_SIZE_BYTES_PROPERTY, "1048576");
        final NodeConfig c = NodeConfig.fromProperties(p);
        assertEquals(3, c.workers());
        assertEquals(2_000_000L, c.idleParkMaxNs());
        assertEquals(1_048_576L, c.workerStackSizeBytes());
        assertEquals(NodeConfig.DEFAULT_IDLE_SPIN_COUNT, c.idleSpinCount());
    }

    @Test
    void shouldRejectUnparsableProperty() {
        final Properties p = new Properties();
        p.setProperty("divvy.workers", "many");
        assertEquals("divvy.workers=many, must be an integer",
            assertThrows(DivvyException.class, () -> NodeConfig.fromProperties(p)).getMessage());
    }

    @Test
    void shouldDescribeEffectiveConfiguration() {
        final NodeConfig c = NodeConfig.builder().workers(7).build();
        final String text = c.describe();
        assertTrue(text.contains("divvy.workers") && text.contains(" 7"), text);
        assertTrue(text.contains("divvy.worker.stackSizeBytes"), text);
        assertTrue(c.toString().contains("workers=7"), c.toString());
        assertEquals(c.toString(), c.toBuilder().build().toString());
    }
}
