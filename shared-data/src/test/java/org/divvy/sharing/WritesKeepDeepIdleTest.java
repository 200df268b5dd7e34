package org.divvy.sharing;

import static org.divvy.SharingAccess.sharing;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;
import org.divvy.StealPolicy;
import org.divvy.TestCluster;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A write received is not work that keeps a node of a run out of deep idle: an idle node of a run written to more
 * often than {@code deepIdleAfterMs} still steals at the deep-idle pace (pauses of 100-200 ms, victims held), not every
 * 10-20 ms. Real nodes over UDP; the test counts the idle node's steal requests, not time.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WritesKeepDeepIdleTest {
    /** Writes come this often, well under {@code deepIdleAfterMs} (200 ms here). */
    private static final long WRITE_INTERVAL_MS = 50;
    /** The idle node's steal requests are counted over this window, which starts 1 s into the run. */
    private static final long WINDOW_MS = 2_000;

    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    @Test
    void anIdleNodeOfARunWrittenToOftenShouldStillStealAtTheDeepIdlePace() {
        final List<DivvyNode> nodes = cluster.startJoined(2, i -> cluster.nodeSettings().policy(StealPolicy.RS)
            .acceptableHeartbeatPauseMs(3000).sharedWriteCombiningMs(0).deepIdleAfterMs(200));
        final DivvyNode master = nodes.get(0);
        final DivvyNode idle = nodes.get(1);
        // a first run spreads the bound: the idle node steals a job and gets a replica
        BestShared best = null;
        for (int attempt = 0; attempt < 5 && (best == null || sharing(idle).replicaOf(best) == null); attempt++) {
            final BestShared candidate = new BestShared();
            master.run(() -> new SharingJobs(2000).explore(8, 0, candidate));
            best = candidate;
        }
        final BestShared bound = best;
        Await.within(Duration.ofSeconds(20)).until(() -> sharing(idle).replicaOf(bound) != null,
            () -> "node 1 stole a job and holds a replica: " + idle.networkStatistics());

        // a run with nothing to steal (the root only writes) whose writes reach the idle node every 50 ms
        final long[] requests = new long[1];
        master.run(() -> {
            int value = 999;
            final long windowStartNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            final long windowEndNs = windowStartNs + TimeUnit.MILLISECONDS.toNanos(WINDOW_MS);
            long before = -1;
            while (System.nanoTime() - windowEndNs < 0) {
                if (before < 0 && System.nanoTime() - windowStartNs >= 0) {
                    before = stealRequests(idle.networkStatistics());
                }
                bound.offer(value--);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(WRITE_INTERVAL_MS));
            }
            requests[0] = stealRequests(idle.networkStatistics()) - before;
            return 0L;
        });
        final int last = bound.value();
        Await.within(Duration.ofSeconds(20)).until(() -> sharing(idle).replicaOf(bound).value() == last,
            () -> "the writes reached the idle node's replica: " + sharing(idle).replicaOf(bound).value() + " vs " + last);
        // in deep idle a request waits 100-200 ms after a failed one: at most ~20 in 2 s; awake, 10-20 ms: 100 or more
        assertTrue(requests[0] > 0 && requests[0] < 50, "steal requests of the idle node in " + WINDOW_MS
            + " ms of writes every " + WRITE_INTERVAL_MS + " ms: " + requests[0] + "\n" + idle.networkStatistics());
    }

    private static long stealRequests(final NetworkStatistics statistics) {
        return statistics.siteStealAttempts() + statistics.wideAreaStealAttempts();
    }
}
