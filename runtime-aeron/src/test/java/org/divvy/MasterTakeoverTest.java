package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.membership.RootKeeper;
import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The master may die (thesis §3.3): a root handed to the registry ({@link DivvyNode#submit}) runs on the
 * master the registry chose; when that master crashes, the registry gives the root to another node, which
 * runs it again, restarted, reusing the leaves the survivors finished for the dead master, and the value
 * reaches the submitter. Three networked nodes in one JVM over real UDP.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MasterTakeoverTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    /** Messages of up to 1 MiB. */
    private NodeConfig.Builder settings(final long acceptablePauseMs) {
        return cluster.nodeSettings().acceptableHeartbeatPauseMs(acceptablePauseMs).maxMessageBytes(1 << 20)
            .maxOutboundBytesPerPeer(1 << 20).maxReassemblyBytes(1 << 20);
    }

    /** Node 0, hosting the registry, and nodes 1 and 2 joined to it; 300 ms of acceptable silence: a crash is seen soon. */
    private List<DivvyNode> startThree() {
        return cluster.startJoined(3, i -> settings(300));
    }

    @Test
    void shouldRunASubmittedRootOnAnotherNode() throws Exception {
        final List<DivvyNode> three = startThree();
        final RunReport<Long> report = three.get(0).submit(Root.of(() -> TestJobs.spawnTree(2, 3, 20)));
        assertEquals(8L, report.value());
        assertEquals(three.get(1).nodeId(), report.masterId(), "the lowest id but the submitter's");
        assertEquals(0, report.takeovers());
        assertTrue(report.masterStatistics().contains("spawned"), report.masterStatistics());
    }

    @Test
    void shouldRunTheRootOnTheSubmitterWhenItIsAlone() {
        final DivvyNode alone = cluster.start(settings(300));
        final RunReport<Long> report = alone.submit(Root.of(() -> TestJobs.spawnTree(2, 2, 1)));
        assertEquals(4L, report.value());
        assertEquals(alone.nodeId(), report.masterId());
    }

    @Test
    void shouldReportTheRootsFailureToTheSubmitter() {
        final List<DivvyNode> three = startThree();
        final RemoteJobException e = assertThrows(RemoteJobException.class,
            () -> three.get(0).submit(Root.of(() -> TestJobs.spawnWork(1, "boom"))));
        assertTrue(e.getMessage().contains("boom"), e.getMessage());
    }

    /** A root larger than maxMessageBytes cannot travel: refused at once with the setting named, never a hang. */
    @Test
    void shouldRefuseARootTooLargeToTravel() {
        final DivvyNode alone = cluster.start(settings(300));
        final String big = "x".repeat(2 << 20); // the argument alone is over the 1 MiB limit of these nodes
        final DivvyException e = assertThrows(DivvyException.class,
            () -> alone.submit(Root.of(() -> TestJobs.spawnWork(1, big))));
        assertTrue(e.getMessage().contains("maxMessageBytes"), e.getMessage());
        assertThrows(DivvyException.class, () -> alone.run(Root.of(() -> TestJobs.spawnWork(1, big))));
        assertEquals(4L, alone.submit(Root.of(() -> TestJobs.spawnTree(2, 2, 1))).value(), "the node still runs roots");
    }

    /** A failure whose message is far larger than a message may be still reaches the submitter, clipped. */
    @Test
    void shouldReportAFailureWithAHugeMessage() {
        final List<DivvyNode> three = startThree();
        // 600 KB of arguments travel; the message could take 1.8 MB as UTF-8, over the 1 MiB a message may take
        final String huge = "boom".repeat(150_000);
        final RemoteJobException e = assertThrows(RemoteJobException.class,
            () -> three.get(0).submit(Root.of(() -> TestJobs.spawnWork(1, huge))));
        assertTrue(e.getMessage().contains("boom") && e.getMessage().length() < 10_000, e.getMessage().length() + "");
    }

    @Test
    void shouldGiveTheRootToANewMasterWhenTheMasterCrashesAndReuseTheSavedLeaves() throws Exception {
        final List<DivvyNode> three = startThree();
        final DivvyNode submitter = three.get(0);
        final DivvyNode master = three.get(1);
        final DivvyNode survivor = three.get(2);
        final long leavesBefore = TestJobs.TREE_LEAVES_RUN.get();
        // 64 leaves of 250 ms on 3 one-worker nodes: ~5.3 s
        final CompletableFuture<RunReport<Long>> run = CompletableFuture.supplyAsync(
            () -> submitter.submit(Root.of(() -> TestJobs.spawnTree(2, 6, 250))));
        // a quarter of the leaves ran, on all three nodes (each other node stole a large subtree at once): what
        // the others finished of their subtrees, which become orphans, they keep
        Await.within(Duration.ofSeconds(20)).until(() -> TestJobs.TREE_LEAVES_RUN.get() - leavesBefore >= 16,
            "the run is under way on all three nodes");
        assertFalse(run.isDone(), "the master crashes before the run ends");
        master.crashForTest();
        final long leavesAtCrash = TestJobs.TREE_LEAVES_RUN.get() - leavesBefore;

        final RunReport<Long> report = run.get(60, TimeUnit.SECONDS);
        assertEquals(64L, report.value(), "the right answer after the master died");
        assertNotEquals(master.nodeId(), report.masterId());
        assertEquals(survivor.nodeId(), report.masterId());
        assertEquals(1, report.takeovers());
        final RecoveryStatistics atSubmitter = submitter.networkStatistics().recovery();
        final RecoveryStatistics atSurvivor = survivor.networkStatistics().recovery();
        final String stats = "leaves at the crash " + leavesAtCrash + ", in all " + (TestJobs.TREE_LEAVES_RUN.get() -
            leavesBefore) + "\nsubmitter: " + atSubmitter + "\nnew master: " + atSurvivor;
        System.out.println(stats);
        assertTrue(atSubmitter.orphansKept() + atSurvivor.orphansKept() >= 1, "orphans kept:\n" + stats);
        assertTrue(atSubmitter.reused() + atSurvivor.reused() >= 1, "and reused by the new master's run:\n" + stats);
        assertEquals(1, survivor.networkForTest().mastership().takeovers());
        // the dead master's departure ended its run on the others; the new master said the run resumes (so idle
        // nodes park short again; it says so again once a second while the run lasts, a reminder for a member that
        // dropped it) and, when its re-run ended, that it ended
        assertTrue(survivor.networkStatistics().messagesSent(LifecycleHandler.RUN_RESUMED) >= 1, "RUN_RESUMED sent");
        Await.within(Duration.ofSeconds(10)).until(
            () -> submitter.networkForTest().traffic().messagesReceived(LifecycleHandler.RUN_RESUMED) >= 1
                && submitter.networkForTest().traffic().messagesReceived(LifecycleHandler.RUN_ENDED) >= 1
                && !submitter.networkForTest().isInRun(), "the submitter saw the run resume and end");
        final RootKeeper keeper = submitter.networkForTest().mastership().keeperForTest();
        assertEquals(1, keeper.masterChanges());
        // the submitter's RECEIVED goes to the registry after its future completed: waited for, not raced
        Await.within(Duration.ofSeconds(10)).until(() -> keeper.runsKept() == 0, "the run ended at the registry");
    }

    @Test
    void shouldHandTheRootOfAMasterThatRanItItselfToAnotherNodeWhenItCrashes() throws Exception {
        final List<DivvyNode> three = startThree();
        final DivvyNode master = three.get(2);
        final DivvyNode registryHost = three.get(0);
        final long leavesBefore = TestJobs.TREE_LEAVES_RUN.get();
        final List<String> unclaimed = new ArrayList<>();
        final RootKeeper keeper = registryHost.networkForTest().mastership().keeperForTest();
        keeper.onUnclaimedResult(line -> {
            synchronized (unclaimed) {
                unclaimed.add(line);
            }
        });
        CompletableFuture.runAsync(() -> master.run(Root.of(() -> TestJobs.spawnTree(2, 4, 250))));
        Await.within(Duration.ofSeconds(20)).until(() -> TestJobs.TREE_LEAVES_RUN.get() - leavesBefore >= 4, "the run is under way");
        master.crashForTest();
        // the registry gives the root to node 1 (the lowest alive id but the dead submitter's); its value is
        // reported to the registry, and node 1 ends the computation, since nobody else waits for it
        final int code = three.get(1).awaitTermination();
        assertEquals(0, code);
        synchronized (unclaimed) {
            assertEquals(1, unclaimed.size(), unclaimed.toString());
            assertTrue(unclaimed.get(0).contains("computed 16"), unclaimed.get(0));
        }
    }

    /**
     * The submitter dies after its root reached the registry, and the master finishes before the registry declares
     * the submitter dead (a 3 s acceptable pause): the value forwarded to the submitter is lost with it. The
     * registry kept the run until the submitter would say the value arrived, so once the submitter is declared dead
     * it reports the value as unclaimed and tells the master to end the computation.
     */
    @Test
    void shouldReportAValueForwardedToASubmitterThatDiedBeforeItWasDeclaredDead() throws Exception {
        final List<DivvyNode> three = cluster.startJoined(3, i -> settings(3000));
        final DivvyNode registryHost = three.get(0);
        final DivvyNode helper = three.get(1);
        final DivvyNode submitter = three.get(2);
        final List<String> unclaimed = new ArrayList<>();
        final RootKeeper keeper = registryHost.networkForTest().mastership().keeperForTest();
        keeper.onUnclaimedResult(line -> {
            synchronized (unclaimed) {
                unclaimed.add(line);
            }
        });
        CompletableFuture.runAsync(() -> submitter.submit(Root.of(() -> TestJobs.spawnTree(2, 2, 200))));
        Await.within(Duration.ofSeconds(20)).until(() -> keeper.runsKept() > 0, "the root reached the registry");
        submitter.crashForTest(); // before it could steal a leaf: the master finishes in about 0.4 s without it
        // the master, node 0 (the lowest id but the submitter's), ends the computation once told nobody waits
        assertEquals(0, helper.awaitTermination());
        synchronized (unclaimed) {
            assertEquals(1, unclaimed.size(), unclaimed.toString());
            assertTrue(unclaimed.get(0).contains("computed 4"), unclaimed.get(0));
        }
        assertEquals(0, keeper.runsKept());
    }

    /** A submitter that gets the value says so, and the registry forgets the run. */
    @Test
    void shouldForgetARunOnceTheSubmitterHasItsValue() throws Exception {
        final List<DivvyNode> three = startThree();
        final RootKeeper keeper = three.get(0).networkForTest().mastership().keeperForTest();
        assertEquals(4L, three.get(2).submit(Root.of(() -> TestJobs.spawnTree(2, 2, 1))).value());
        Await.within(Duration.ofSeconds(10)).until(() -> keeper.runsKept() == 0, "the submitter's RECEIVED reached the registry");
    }
}
