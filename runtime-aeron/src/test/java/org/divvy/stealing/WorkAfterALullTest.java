package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.StealPolicy;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * Work that appears in a run after a lull still reaches every node, though the idle nodes hold their steal victims
 * in deep idle ({@code deepIdleVictimHoldMs}): the root sleeps many times {@code deepIdleAfterMs} (every other node is
 * in deep idle and holds a victim that has nothing) and only then spawns work, round after round, until every node
 * has run a stolen job or the deadline passes. With victims held for good, a node whose held victim never gets work
 * would never run a job. No timing assertions: the deadline is the test's.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorkAfterALullTest {
    private static final int SITES = 2;
    private static final int NODES_PER_SITE = 3;
    /** How long every node may take to run a stolen job once the work appeared. */
    private static final long SPREAD_DEADLINE_MS = 60_000;

    private static DivvyNode start(final MediaDriver driver, final String join, final String site, final StealPolicy policy) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(join).site(site).policy(policy)
            .deepIdleAfterMs(100).deepIdleVictimHoldMs(5_000).build());
    }

    @Test
    void workSpawnedAfterALullShouldReachEveryNodeUnderCrs() {
        workSpawnedAfterALullShouldReachEveryNode(StealPolicy.CRS);
    }

    @Test
    void workSpawnedAfterALullShouldReachEveryNodeUnderRs() {
        workSpawnedAfterALullShouldReachEveryNode(StealPolicy.RS);
    }

    private static void workSpawnedAfterALullShouldReachEveryNode(final StealPolicy policy) {
        final List<DivvyNode> nodes = new ArrayList<>();
        try (MediaDriver driver = TestDriver.launch()) {
            try {
                final DivvyNode master = start(driver, null, "A", policy);
                nodes.add(master);
                for (int i = 1; i < SITES * NODES_PER_SITE; i++) {
                    nodes.add(start(driver, master.endpoint(), i < NODES_PER_SITE ? "A" : "B", policy));
                }
                for (final DivvyNode node : nodes) {
                    node.awaitMembers(nodes.size(), Duration.ofSeconds(30));
                }
                final long[] ranBefore = new long[nodes.size()];
                for (int i = 0; i < nodes.size(); i++) {
                    ranBefore[i] = nodes.get(i).networkStatistics().remoteJobsRun();
                }
                final long[] spreadNs = new long[1];
                final RunResult<Long> result = master.run(() -> {
                    // the lull: 30 times deepIdleAfterMs, so every other node holds a victim, for up to 1.6 s by now
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
                    final long startNs = System.nanoTime();
                    final long deadlineNs = startNs + TimeUnit.MILLISECONDS.toNanos(SPREAD_DEADLINE_MS);
                    long leaves = 0;
                    while (!everyJoinerRanAJob(nodes, ranBefore) && System.nanoTime() - deadlineNs < 0) {
                        leaves += TestJobs.tree(2, 7, 2);
                    }
                    spreadNs[0] = System.nanoTime() - startNs;
                    return leaves;
                });
                final StringBuilder ran = new StringBuilder();
                for (int i = 0; i < nodes.size(); i++) {
                    ran.append(" node ").append(i).append(": ")
                        .append(nodes.get(i).networkStatistics().remoteJobsRun() - ranBefore[i]);
                }
                System.out.printf("%s: work reached every node %.1f s after it appeared;%s%n", policy, spreadNs[0] / 1e9, ran);
                assertTrue(result.value() > 0, "the root spawned work");
                assertTrue(everyJoinerRanAJob(nodes, ranBefore),
                    policy + ": within " + SPREAD_DEADLINE_MS + " ms of the work's appearance, stolen jobs run per node:" + ran +
                        "\n" + result.statistics());
            } finally {
                for (int i = nodes.size() - 1; i >= 0; i--) {
                    nodes.get(i).close();
                }
            }
        }
    }

    /** Whether every node but the master (which runs the root) ran a job stolen from a peer during the run. */
    private static boolean everyJoinerRanAJob(final List<DivvyNode> nodes, final long[] ranBefore) {
        for (int i = 1; i < nodes.size(); i++) {
            if (nodes.get(i).networkStatistics().remoteJobsRun() - ranBefore[i] == 0) {
                return false;
            }
        }
        return true;
    }
}
