package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.stealing.StealRequestFlyweight;
import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A node asks its peers for work only while it knows of a run (RUN_STARTED or RUN_RESUMED of a live master that did
 * not end): between runs nobody has work to give, and every new victim would cost a media-driver publication.
 * Real nodes over UDP: between runs no STEAL_REQUEST leaves any node; in a run the peers steal; after it, they stop
 * again; a node that joins while a run goes on learns of it (RUN_RESUMED) and steals from it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StealOnlyInRunsTest {
    /**
     * Long enough for an out-of-work node to have asked many times (its awake backoff is at most 20 ms, its deep-idle
     * one 200 ms, so 1 s without the rule meant 5 to 50 requests a node).
     */
    private static final long QUIET_MS = 1000;

    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    private static long stealRequestsSent(final DivvyNode node) {
        return node.networkForTest().traffic().messagesSent(StealRequestFlyweight.TYPE);
    }

    @Test
    void shouldStealOnlyWhileARunIsActiveAndFromARunJoinedMidWay() throws Exception {
        final List<DivvyNode> three = cluster.startJoined(3, i -> cluster.nodeSettings());
        final DivvyNode master = three.get(0);

        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(QUIET_MS));
        for (final DivvyNode node : three) {
            assertEquals(0, stealRequestsSent(node), "node " + node.nodeId() + " asked for work before any run");
        }

        final RunResult<Long> first = master.run(() -> TestJobs.tree(2, 6, 20));
        assertEquals(64L, first.value());
        assertTrue(three.get(1).networkStatistics().remoteSteals() + three.get(2).networkStatistics().remoteSteals() > 0,
            "the peers stole from the run:\n" + first.statistics());

        final Await tenSeconds = Await.within(Duration.ofSeconds(10));
        for (final DivvyNode node : three) {
            tenSeconds.until(() -> !node.networkForTest().isInRun(), "node " + node.nodeId() + " learns the run ended");
        }
        final long[] after = three.stream().mapToLong(StealOnlyInRunsTest::stealRequestsSent).toArray();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(QUIET_MS));
        for (int i = 0; i < three.size(); i++) {
            assertEquals(after[i], stealRequestsSent(three.get(i)), "node " + i + " asked for work after the run ended");
        }

        // A second run, long enough (256 leaves of 100 ms on 3 one-worker nodes) for a fourth node to join during it.
        final long resumedBefore = master.networkStatistics().messagesSent(LifecycleHandler.RUN_RESUMED);
        final CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> master.run(() -> TestJobs.tree(2, 8, 100)).value());
        Await.within(Duration.ofSeconds(10)).until(() -> master.networkStatistics().jobsGiven() > 0, "the run's jobs are stolen");
        final DivvyNode joiner = cluster.start(cluster.nodeSettings().join(master.endpoint()));
        Await.within(Duration.ofSeconds(20)).until(() -> joiner.networkStatistics().remoteSteals() > 0 || second.isDone(),
            "the node that joined mid-run steals from it");
        assertTrue(joiner.networkStatistics().remoteSteals() > 0, "the joiner stole before the run ended");
        assertTrue(master.networkStatistics().messagesSent(LifecycleHandler.RUN_RESUMED) > resumedBefore,
            "the master told the joiner of its run (RUN_RESUMED)");
        assertEquals(256L, second.get(40, TimeUnit.SECONDS));
    }
}
