package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.divvy.codegen.Spawns;
import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Result copies, two sites over real UDP in one JVM: node 1, alone in site X, steals a tree from the master (site R)
 * and works inside it; the jobs it finishes are copied to the master, the keeper of site X. Node 1 crashes with the
 * tree unfinished: its finished work lived only in its frames (it gave nothing away, so no survivor holds an orphan),
 * and only the copies let the master's recomputation of the tree reuse it.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResultCopiesSiteTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    @Test
    void shouldReuseWhatADeadSiteFinishedThroughItsCopies() throws Exception {
        final Outcome o = crashTheSiteWorkingInsideTheTree(100);
        System.out.println(o.report);
        assertTrue(o.atMaster.copiesKept() >= 3, o.report);
        assertTrue(o.atMaster.copiesAdopted() >= 1, "the keeper adopted the dead site's copies:\n" + o.report);
        assertEquals(1, o.atMaster.jobsRestarted(), o.report);
        assertTrue(o.atMaster.reused() >= 1, "the recomputed tree reused them:\n" + o.report);
        assertTrue(o.leavesRun < 16, "fewer leaves than two whole trees ran: " + o.leavesRun + "\n" + o.report);
    }

    /** The control: with copies off the same crash loses all the dead site did, and the whole tree runs again. */
    @Test
    void shouldRecomputeEverythingTheDeadSiteDidWithCopiesOff() throws Exception {
        final Outcome o = crashTheSiteWorkingInsideTheTree(0);
        assertEquals(0, o.atMaster.copiesKept(), o.report);
        assertEquals(0, o.atMaster.reused(), o.report);
        assertTrue(o.leavesRun >= 8 + 3, "the leaves the dead site finished ran again: " + o.leavesRun + "\n" + o.report);
    }

    private record Outcome(RecoveryStatistics atMaster, long leavesRun, String report) {
    }

    private Outcome crashTheSiteWorkingInsideTheTree(final long resultCopyMinMs) throws Exception {
        final List<DivvyNode> two = cluster.startJoined(2, i -> cluster.nodeSettings().acceptableHeartbeatPauseMs(300)
            .site(i == 0 ? "R" : "X").resultCopyMinMs(resultCopyMinMs));
        final DivvyNode master = two.get(0);
        final DivvyNode thief = two.get(1);
        final long leavesBefore = TestJobs.TREE_LEAVES_RUN.get();
        final CompletableFuture<RunResult<Long>> run = CompletableFuture.supplyAsync(() -> master.run(() -> {
            final LongSpawn tree = TestJobs.spawnTree(2, 3, 250); // 8 leaves of 250 ms: stolen by node 1
            final LongSpawn busy = TestJobs.spawnWork(3_000, ""); // keeps the master's only worker busy
            Spawns.sync();
            return tree.get() + busy.get();
        }));
        // node 1 finished 3 of the 8 leaves (and a subtree of two): its frames hold them, the tree is unfinished
        Await.within(Duration.ofSeconds(15)).until(() -> TestJobs.TREE_LEAVES_RUN.get() - leavesBefore >= 3, "leaves finish");
        if (resultCopyMinMs > 0) {
            Await.within(Duration.ofSeconds(5)).until(() -> master.networkStatistics().recovery().copiesKept() >= 3,
                "the copies reached the keeper");
        }
        assertEquals(1, master.networkStatistics().jobsGiven(), "node 1 stole the tree");
        assertEquals(0, thief.networkStatistics().jobsGiven(), "and gave nothing away");
        thief.crashForTest();
        final RunResult<Long> result = run.get(60, TimeUnit.SECONDS);
        assertEquals(8L + 3_000L, result.value(), "the right answer after the site died");
        final RecoveryStatistics atMaster = master.networkStatistics().recovery();
        final long leavesRun = TestJobs.TREE_LEAVES_RUN.get() - leavesBefore;
        return new Outcome(atMaster, leavesRun, "master: " + atMaster + "\nleaves run: " + leavesRun);
    }
}
