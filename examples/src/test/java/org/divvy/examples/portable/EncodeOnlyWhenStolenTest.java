package org.divvy.examples.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Spawning encodes nothing: only a job given to another node is encoded, or every job in checking mode. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EncodeOnlyWhenStolenTest {
    private static int encodesOf(final NodeConfig config) {
        Counted.ITERATIONS.set(0);
        try (DivvyNode node = DivvyNode.start(config)) {
            assertEquals(300, node.run(() -> new Counted().spawnAll(100)).value());
        }
        return Counted.ITERATIONS.get();
    }

    @Test
    void shouldEncodeNoSpawnedJobOnASingleNode() {
        assertEquals(0, encodesOf(NodeConfig.builder().workers(2).build()));
    }

    @Test
    void shouldEncodeEverySpawnedJobOnceInCheckingMode() {
        assertEquals(100, encodesOf(NodeConfig.builder().workers(2).checkCodecs(true).build()));
    }
}
