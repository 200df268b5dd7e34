package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * Idle nodes of a run with nothing to steal stay in deep idle, though their links close idle publications and a
 * held victim's successor needs a new stream: a steal request waiting for its stream to connect must not wake the
 * node (it did, and each wake was a second of steals every 10-20 ms to random members, each a new stream again).
 * Observed through the steal requests each node sends: in deep idle a failed steal pauses at least half the deep
 * cap (100 ms), so a node that stayed deep sends at most one request per 100 ms; an awake one sends one every
 * 10-20 ms. Counting, not timing: the deep pace is an upper bound that a slow machine only lowers.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleRunStaysDeepTest {
    private static final int NODES = 6;
    /** The window in which requests are counted: from 3 s into the run (every node deep since about 1 s) for 6 s. */
    private static final long WINDOW_START_MS = 3_000;
    private static final long WINDOW_MS = 6_000;
    /** Pauses of at least 100 ms (half the 200 ms deep cap): at most one request per 100 ms, and one at the start. */
    private static final long DEEP_MAX_REQUESTS = WINDOW_MS / 100 + 1;

    private static DivvyNode start(final MediaDriver driver, final String join) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(join).policy(StealPolicy.RS)
            .idlePublicationCloseMs(1_000).deepIdleAfterMs(1_000).deepIdleStealBackoffMs(200).deepIdleVictimHoldMs(1_000)
            .build());
    }

    @Test
    void idleNodesOfARunShouldStayInDeepIdleWhileTheirNewVictimsStreamsConnect() {
        final List<DivvyNode> nodes = new ArrayList<>();
        try (MediaDriver driver = TestDriver.launch()) {
            try {
                final DivvyNode master = start(driver, null);
                nodes.add(master);
                for (int i = 1; i < NODES; i++) {
                    nodes.add(start(driver, master.endpoint()));
                }
                for (final DivvyNode node : nodes) {
                    node.awaitMembers(NODES, Duration.ofSeconds(30));
                }
                final long[] requests = new long[NODES];
                master.run(() -> { // nothing to steal: the root only waits
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(WINDOW_START_MS));
                    for (int i = 1; i < NODES; i++) {
                        requests[i] = -stealRequests(nodes.get(i).networkStatistics());
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(WINDOW_MS));
                    for (int i = 1; i < NODES; i++) {
                        requests[i] += stealRequests(nodes.get(i).networkStatistics());
                    }
                    return 0L;
                });
                for (int i = 1; i < NODES; i++) {
                    assertTrue(requests[i] > 0 && requests[i] <= DEEP_MAX_REQUESTS, "node " + i + " sent " + requests[i]
                        + " steal requests in " + WINDOW_MS + " ms of an idle run; at the deep-idle pace at most "
                        + DEEP_MAX_REQUESTS + ": " + java.util.Arrays.toString(requests));
                }
            } finally {
                for (int i = nodes.size() - 1; i >= 0; i--) {
                    nodes.get(i).close();
                }
            }
        }
    }

    private static long stealRequests(final NetworkStatistics statistics) {
        return statistics.siteStealAttempts() + statistics.wideAreaStealAttempts();
    }
}
