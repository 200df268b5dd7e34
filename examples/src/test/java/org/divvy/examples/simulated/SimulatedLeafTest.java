package org.divvy.examples.simulated;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SimulatedLeafTest {
    /**
     * The contract of a simulated leaf, not a speed: a leaf of N µs occupies its worker for at least N µs
     * (a lower bound the JVM guarantees for a park, so this cannot fail on a slow or loaded machine).
     */
    @Test
    void shouldParkAtLeastTheLeafTime() {
        final long startNs = System.nanoTime();
        SimulatedLeaf.park(2_000);
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MICROSECONDS.toNanos(2_000));
    }
}
