package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.divvy.codegen.Spawns;
import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crash recovery with orphan saving (thesis §3.3), three networked nodes in one JVM over real UDP: the
 * master gives a job to node A, node B steals part of it from A, A crashes. The master computes A's job
 * again (restarted); B's part is an orphan: B aborts it but keeps the leaves it had finished, announces
 * them, and the recomputation reuses them instead of computing them again. The answer is right.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OrphanSavingTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();
    /** {@code NodeConfig.orphanSaving} of the nodes a test starts. */
    private boolean orphanSaving = true;

    /** Node 0 (the master, hosting the registry) and nodes 1 and 2 joined to it. */
    private List<DivvyNode> startThree() {
        return cluster.startJoined(3, i -> cluster.nodeSettings().acceptableHeartbeatPauseMs(300).orphanSaving(orphanSaving));
    }

    @Test
    void shouldReuseTheFinishedLeavesOfAnOrphanWhenItsOwnerCrashes() throws Exception {
        final Scenario s = crashTheOwnerOfAStolenPart();
        final DivvyNode master = s.master();
        final DivvyNode holder = s.holder();
        final CompletableFuture<RunResult<Long>> run = s.run();
        final RunResult<Long> result = run.get(60, TimeUnit.SECONDS);
        assertEquals(8L + 4_000L, result.value());
        final RecoveryStatistics atMaster = master.networkStatistics().recovery();
        final RecoveryStatistics atHolder = holder.networkStatistics().recovery();
        final String report = "master: " + atMaster + "\nholder: " + atHolder;
        System.out.println(report);
        assertEquals(1, atMaster.jobsRestarted(), report);
        assertTrue(atHolder.orphansKept() >= 1, "the holder kept the leaves it had finished:\n" + report);
        assertEquals(1, atHolder.announcements(), "one combined announcement:\n" + report);
        assertTrue(atMaster.reused() + atHolder.reused() >= 1, "the recomputation reused them:\n" + report);
    }

    /** Orphan saving off (the naive baseline): the same crash discards the orphan's finished leaves; the answer is still right. */
    @Test
    void shouldDiscardOrphanedWorkWithOrphanSavingOff() throws Exception {
        orphanSaving = false;
        final Scenario s = crashTheOwnerOfAStolenPart();
        final RunResult<Long> result = s.run().get(60, TimeUnit.SECONDS);
        assertEquals(8L + 4_000L, result.value());
        final RecoveryStatistics atMaster = s.master().networkStatistics().recovery();
        final RecoveryStatistics atHolder = s.holder().networkStatistics().recovery();
        final String report = "master: " + atMaster + "\nholder: " + atHolder;
        assertEquals(1, atMaster.jobsRestarted(), report);
        for (final RecoveryStatistics r : List.of(atMaster, atHolder)) {
            assertEquals(0, r.orphansKept(), "nothing kept:\n" + report);
            assertEquals(0, r.announcements(), "nothing announced:\n" + report);
            assertEquals(0, r.pairsReceived(), report);
            assertEquals(0, r.reused(), "nothing reused:\n" + report);
        }
    }

    /**
     * As above, but the holder stops stealing once its announcement reached the master, so the master
     * recomputes the whole job alone and asks the holder for what it kept (RESULT_REQUEST).
     */
    @Test
    void shouldFetchAnOrphanResultFromItsHolderWithAResultRequest() throws Exception {
        final Scenario s = crashTheOwnerOfAStolenPart();
        Await.within(Duration.ofSeconds(15)).until(() -> s.master.networkStatistics().recovery().pairsReceived() > 0,
            "the holder's announcement reached the master");
        s.holder.networkForTest().stopStealing(); // the master computes the restarted job alone
        final RunResult<Long> result = s.run.get(60, TimeUnit.SECONDS);
        assertEquals(8L + 4_000L, result.value());
        final RecoveryStatistics atMaster = s.master.networkStatistics().recovery();
        final RecoveryStatistics atHolder = s.holder.networkStatistics().recovery();
        final String report = "master: " + atMaster + "\nholder: " + atHolder;
        System.out.println(report);
        assertTrue(atMaster.resultRequests() >= 1, "the master asked the holder:\n" + report);
        assertEquals(atMaster.resultRequests(), atHolder.heldResultsReturned(), "and the holder answered each request:\n" + report);
    }

    /**
     * The holder crashes too, after its announcement reached the master and before the master recomputes:
     * what it kept is gone, its pairs are dropped with it, and the master computes those jobs itself.
     */
    @Test
    void shouldComputeWhatADeadHolderKept() throws Exception {
        final Scenario s = crashTheOwnerOfAStolenPart();
        Await.within(Duration.ofSeconds(15)).until(() -> s.master.networkStatistics().recovery().pairsReceived() > 0,
            "the holder's announcement reached the master");
        s.holder.crashForTest();
        final RunResult<Long> result = s.run.get(60, TimeUnit.SECONDS);
        assertEquals(8L + 4_000L, result.value(), "nothing lost with the holder");
        final RecoveryStatistics atMaster = s.master.networkStatistics().recovery();
        assertEquals(0, atMaster.copiedHere(), atMaster.toString());
    }

    /**
     * B finishes its part and sends the result to A before A crashes: the result is lost with A, but B
     * kept it (results sent in the failure detector's window are kept), so it becomes an orphan B holds.
     */
    @Test
    void shouldKeepAResultSentToAnOwnerThatThenCrashed() throws Exception {
        final List<DivvyNode> three = startThree();
        final DivvyNode master = three.get(0);
        final DivvyNode first = three.get(1);
        final DivvyNode second = three.get(2);
        final CompletableFuture<RunResult<Long>> run = CompletableFuture.supplyAsync(() -> master.run(() -> {
            final LongSpawn tree = TestJobs.spawnTree(3, 2, 300); // 3 parts of 3 leaves: A runs two, B one
            final LongSpawn busy = TestJobs.spawnWork(4_000, "");
            Spawns.sync();
            return tree.get() + busy.get();
        }));
        // the holder ran a part for the tree's thief and sent the result back
        final DivvyNode holder = Await.within(Duration.ofSeconds(15)).value(() -> lastOf(List.of(first, second),
            node -> node.networkStatistics().remoteJobsRun() > 0 && node.networkStatistics().jobsGiven() == 0),
            "a part of the stolen tree was stolen again and returned");
        final DivvyNode owner = holder == first ? second : first;
        assertTrue(owner.networkStatistics().jobsGiven() > 0, "the other one is the tree's thief");
        owner.crashForTest();

        final RunResult<Long> result = run.get(60, TimeUnit.SECONDS);
        assertEquals(9L + 4_000L, result.value());
        final RecoveryStatistics atMaster = master.networkStatistics().recovery();
        final RecoveryStatistics atHolder = holder.networkStatistics().recovery();
        final String report = "master: " + atMaster + "\nholder: " + atHolder;
        System.out.println(report);
        assertEquals(1, atMaster.jobsRestarted(), "A's tree runs again:\n" + report);
        assertTrue(atHolder.orphansKept() >= 1, "the sent result was kept:\n" + report);
        assertTrue(atMaster.reused() + atHolder.reused() >= 1, "and reused:\n" + report);
    }

    private record Scenario(DivvyNode master, DivvyNode holder, CompletableFuture<RunResult<Long>> run, DivvyNode leaver) {
    }

    /**
     * Starts the run, waits until node A (the thief of the tree) gave part of it to node B and both finished
     * a leaf, and crashes A.
     */
    private Scenario crashTheOwnerOfAStolenPart() {
        return endTheOwnerOfAStolenPart(false);
    }

    /**
     * A leave during a computation (thesis §3.5): as a crash, but the leaver first makes the jobs it runs for
     * others orphans and hands what they finished (its part of the tree's leaves) to a staying node, which
     * announces them; the master's recomputation of the tree reuses them.
     */
    @Test
    void shouldHandTheFinishedResultsOfALeavingNodeToAStayingOne() throws Exception {
        final Scenario s = endTheOwnerOfAStolenPart(true);
        final RunResult<Long> result = s.run.get(60, TimeUnit.SECONDS);
        assertEquals(8L + 4_000L, result.value(), "the right answer after a node left mid-run");
        final RecoveryStatistics atLeaver = s.leaver.networkStatistics().recovery();
        final RecoveryStatistics atMaster = s.master.networkStatistics().recovery();
        final RecoveryStatistics atHolder = s.holder.networkStatistics().recovery();
        final String report = "leaver: " + atLeaver + "\nmaster: " + atMaster + "\nholder: " + atHolder;
        System.out.println(report);
        assertTrue(atLeaver.resultsHandedOver() >= 1, "the leaver handed over its finished leaves:\n" + report);
        assertEquals(atLeaver.resultsHandedOver(), atMaster.resultsTakenOver() + atHolder.resultsTakenOver(), report);
        assertEquals(1, atMaster.jobsRestarted(), "the leaver's job runs again:\n" + report);
        assertTrue(atMaster.reused() + atHolder.reused() >= 1, "reusing what it handed over:\n" + report);
    }

    private Scenario endTheOwnerOfAStolenPart(final boolean graceful) {
        final List<DivvyNode> three = startThree();
        final DivvyNode master = three.get(0);
        final DivvyNode first = three.get(1);
        final DivvyNode second = three.get(2);
        final long leavesBefore = TestJobs.TREE_LEAVES_RUN.get();
        final CompletableFuture<RunResult<Long>> run = CompletableFuture.supplyAsync(() -> master.run(() -> {
            final LongSpawn tree = TestJobs.spawnTree(2, 3, 800); // 8 leaves of 800 ms: stolen by A or B
            final LongSpawn busy = TestJobs.spawnWork(4_000, ""); // keeps the master's only worker busy
            Spawns.sync();
            return tree.get() + busy.get();
        }));
        // the thief of the tree is the node that gives part of it away in turn: that one crashes
        final Await fifteenSeconds = Await.within(Duration.ofSeconds(15));
        final DivvyNode owner = fifteenSeconds.value(() -> lastOf(List.of(first, second),
            node -> node.networkStatistics().jobsGiven() > 0), "a part of the stolen tree was stolen again");
        final DivvyNode holder = owner == first ? second : first;
        // A and B each finish a leaf (B's part, 4 leaves, takes 3.2 s: it is still running when A is found dead)
        fifteenSeconds.until(() -> TestJobs.TREE_LEAVES_RUN.get() - leavesBefore >= 2, "leaves finish");
        if (graceful) {
            owner.close();
        } else {
            owner.crashForTest();
        }
        return new Scenario(master, holder, run, owner);
    }

    /** The last of {@code nodes} that matches, or null. */
    private static DivvyNode lastOf(final List<DivvyNode> nodes, final Predicate<DivvyNode> matches) {
        DivvyNode last = null;
        for (final DivvyNode node : nodes) {
            if (matches.test(node)) {
                last = node;
            }
        }
        return last;
    }
}
