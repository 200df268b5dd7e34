package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.divvy.stealing.TestJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Root}: one spawn call recorded on the application thread, then run as a run's root, any number of times. */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RootTest {
    @Test
    void shouldRunARootOnASingleNodeAgainAndAgain() {
        final Root<Long> root = Root.of(() -> new TestJobs.Fib(2, 0).spawnFib(15));
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).build())) {
            assertEquals(610L, node.run(root).value());
            assertEquals(610L, node.run(root).value(), "a root may run again");
            final RunResult<Long> tree = node.run(Root.of(() -> TestJobs.spawnTree(3, 3, 0)));
            assertEquals(27L, tree.value());
            assertTrue(tree.statistics().jobsSpawned() >= 39, "the root's children ran as jobs: " + tree.statistics());
        }
    }

    @Test
    void shouldRecordTheSpawnWithoutRunningIt() {
        final long before = TestJobs.TREE_LEAVES_RUN.get();
        final Root<Long> root = Root.of(() -> TestJobs.spawnTree(2, 1, 0));
        assertEquals(before, TestJobs.TREE_LEAVES_RUN.get(), "making a root runs nothing");
        assertEquals("org.divvy.stealing.TestJobs#tree", root.spawnableName());
    }

    @Test
    void shouldRethrowTheRootsFailure() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final RuntimeException e = assertThrows(RuntimeException.class,
                () -> node.run(Root.of(() -> TestJobs.spawnWork(1, "boom"))));
            assertTrue(String.valueOf(e.getMessage()).contains("boom"), e.toString());
        }
    }

    @Test
    void shouldSayWhatIsWrongWithARootThatIsNotOneSpawn() {
        final DivvyException none = assertThrows(DivvyException.class, () -> Root.of(() -> (LongSpawn)null));
        assertTrue(none.getMessage().contains("spawned no job"), none.getMessage());
        final DivvyException two = assertThrows(DivvyException.class, () -> Root.of(() -> {
            TestJobs.spawnTree(2, 1, 0);
            return TestJobs.spawnTree(2, 1, 0);
        }));
        assertTrue(two.getMessage().contains("a root spawns one job"), two.getMessage());
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final DivvyException inside = assertThrows(DivvyException.class, () -> node.run(() -> Root.of(
                () -> TestJobs.spawnTree(2, 1, 0))));
            assertTrue(inside.getMessage().contains("outside jobs"), inside.getMessage());
        }
        final DivvyException offWorker = assertThrows(DivvyException.class, () -> TestJobs.spawnTree(2, 1, 0));
        assertTrue(offWorker.getMessage().contains("not running a Divvy job"), offWorker.getMessage());
    }

    @Test
    void shouldRefuseSubmitOnASingleNode() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final DivvyException e = assertThrows(DivvyException.class,
                () -> node.submit(Root.of(() -> TestJobs.spawnTree(2, 1, 0))));
            assertTrue(e.getMessage().contains("networked"), e.getMessage());
        }
    }
}
