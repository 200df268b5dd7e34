package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.divvy.stealing.TestJobs;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code divvy leave} through the registry ({@link DivvyNode#askToLeave}): a process that is no member, holding the
 * cluster secret, asks the registry to make a member leave; the member leaves gracefully during the run (its
 * {@code awaitTermination} returns, what it finished goes to a staying node) and the run's value is right. The
 * registry refuses what would lose the run (its own host, a submitter waiting for its value, unknown and gone
 * members), and a requester without the secret gets no answer at all. Three networked nodes in one JVM over real UDP.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LeaveOrderTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    private NodeConfig.Builder config(final String join) {
        return cluster.nodeSettings().join(join).acceptableHeartbeatPauseMs(1000);
    }

    private List<DivvyNode> startThree() {
        return cluster.startJoined(3, i -> config(null));
    }

    /** The requester: no node, the registry's address, the same secret (the test JVM's DIVVY_SECRET). */
    private NodeConfig requester(final DivvyNode registryHost) {
        return config(registryHost.endpoint()).joinTimeoutMs(5_000).build();
    }

    @Test
    void shouldMakeAMemberLeaveGracefullyDuringARunAndStillComputeRight() throws Exception {
        final List<DivvyNode> three = startThree();
        final DivvyNode leaver = three.get(2);
        final CompletableFuture<Integer> leaverEnd = CompletableFuture.supplyAsync(leaver::awaitTermination);
        final long leavesBefore = TestJobs.TREE_LEAVES_RUN.get();
        final CompletableFuture<RunReport<Long>> run = CompletableFuture.supplyAsync(
            () -> three.get(0).submit(Root.of(() -> TestJobs.spawnTree(2, 5, 100))));
        Await.within(Duration.ofSeconds(20)).until(() -> TestJobs.TREE_LEAVES_RUN.get() - leavesBefore >= 8, "the run is under way");
        final String answer = DivvyNode.askToLeave(requester(three.get(0)), leaver.nodeId());
        assertEquals("node " + leaver.nodeId() + ": asked to leave (" + leaver.endpoint() + ")\n", answer);
        assertEquals(0, leaverEnd.get(20, TimeUnit.SECONDS), "awaitTermination returns when the node is told to leave");
        assertTrue(leaver.isLeaveOrdered());
        leaver.close(); // waits for the leave under way
        final RunReport<Long> report = run.get(60, TimeUnit.SECONDS);
        assertEquals(32L, report.value());
        assertFalse(three.get(0).isLeaveOrdered());
        final String again = DivvyNode.askToLeave(requester(three.get(0)), leaver.nodeId());
        assertEquals("node " + leaver.nodeId() + ": not asked: it left already\n", again);
    }

    @Test
    void shouldRefuseToOrderOutWhatTheRunCannotLose() throws Exception {
        final List<DivvyNode> three = startThree();
        // node 1 submits a long root (the master is node 0, the lowest id but the submitter's): it waits for the value
        final CompletableFuture<RunReport<Long>> run = CompletableFuture.supplyAsync(
            () -> three.get(1).submit(Root.of(() -> TestJobs.spawnTree(2, 3, 300))));
        Await.within(Duration.ofSeconds(20)).until(
            () -> three.get(0).networkForTest().mastership().keeperForTest().runsKept() > 0, "the root reached the registry");
        final String answer = DivvyNode.askToLeave(requester(three.get(0)), 0, 1, 9);
        assertEquals("node 0: not asked: it hosts the registry, which the run cannot lose (surviving the registry's loss "
            + "is future work)\nnode 1: not asked: it waits for the value of the run it submitted (`"
            + "org.divvy.stealing.TestJobs#tree`)\nnode 9: no such member (members are nodes 0 to 2)\n", answer);
        assertEquals(8L, run.get(60, TimeUnit.SECONDS).value());
        assertFalse(three.get(1).isLeaveOrdered());
    }

    @Test
    void shouldGetNoAnswerWithoutTheClusterSecret() {
        final List<DivvyNode> three = startThree();
        final NodeConfig stranger = config(three.get(0).endpoint()).joinTimeoutMs(1_500)
            .secret(ClusterSecret.ofText("not the cluster's secret, but long enough")).build();
        final DivvyException e = assertThrows(DivvyException.class, () -> DivvyNode.askToLeave(stranger, 2));
        assertTrue(e.getMessage().startsWith("no answer from the registry at " + three.get(0).endpoint() + " within 1500 ms"),
            e.getMessage());
        assertTrue(e.getMessage().contains("cluster secret"), e.getMessage());
        assertFalse(three.get(2).isLeaveOrdered(), "a request under another key orders nobody out");
    }
}
