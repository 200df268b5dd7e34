package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.divvy.scheduling.Fib;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DivvyNodeTest {
    private static List<Thread> workerThreadsOf(final String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith(prefix) && t.getName().contains("-worker-"))
            .collect(Collectors.toList());
    }

    private static String prefixOf(final DivvyNode node) throws Exception {
        // the worker names start with the node's name: find it through a run
        final String name = node.run(() -> Thread.currentThread().getName()).value();
        return name.substring(0, name.indexOf("-worker-"));
    }

    @Test
    void shouldLeaveNoThreadsAfterClose() throws Exception {
        final String prefix;
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(3).build())) {
            prefix = prefixOf(node);
            assertEquals(3, workerThreadsOf(prefix).size());
            assertEquals(Fib.fibSequential(18), node.run(() -> new Fib(5).fib(18)).value());
        }
        assertEquals(List.of(), workerThreadsOf(prefix));
    }

    @Test
    void shouldParkAllWorkersWhenIdle() throws Exception {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).build())) {
            final String prefix = prefixOf(node);
            node.run(() -> new Fib(5).fib(20));
            final List<Thread> workers = workerThreadsOf(prefix);
            assertEquals(2, workers.size());
            Thread.sleep(50); // past the spin and yield phases
            boolean allParkedSeen = false;
            for (int i = 0; i < 200 && !allParkedSeen; i++) {
                allParkedSeen = workers.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING ||
                    t.getState() == Thread.State.WAITING);
                Thread.sleep(1);
            }
            assertTrue(allParkedSeen, "workers park when idle");
            if (threads.isThreadCpuTimeSupported()) {
                final long idleWindowNs = TimeUnit.MILLISECONDS.toNanos(500);
                final long before = workers.stream().mapToLong(t -> threads.getThreadCpuTime(t.getId())).sum();
                Thread.sleep(TimeUnit.NANOSECONDS.toMillis(idleWindowNs));
                final long usedNs = workers.stream().mapToLong(t -> threads.getThreadCpuTime(t.getId())).sum() - before;
                // an idle node must not burn a core: allow 10% of one core for both workers together
                assertTrue(usedNs < idleWindowNs / 10, "idle workers used " + usedNs / 1_000 + " us of CPU in 500 ms");
            }
        }
    }

    @Test
    void shouldCountEveryJobInStatistics() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).build())) {
            final RunResult<Long> r = node.run(() -> new Fib(2).fib(20));
            final RunStatistics s = r.statistics();
            assertEquals(Fib.fibSequential(20), r.value());
            assertEquals(2 * (Fib.fibSequential(21) - 1), s.jobsSpawned());
            assertEquals(s.jobsSpawned(), s.jobsExecuted());
            assertEquals(0, s.jobsCancelled());
            assertTrue(s.localSteals() <= s.localStealAttempts());
            assertTrue(r.elapsedNs() > 0);
            assertEquals(r.elapsedNs(), s.elapsedNs());
            for (int w = 0; w < s.workerCount(); w++) {
                assertTrue(s.idleNs(w) >= 0 && s.idleNs(w) <= s.elapsedNs());
                assertEquals(s.elapsedNs(), s.idleNs(w) + s.busyNs(w));
            }
            final String table = s.toString();
            assertTrue(table.contains("spawned " + s.jobsSpawned()), table);
            assertTrue(table.contains("worker"), table);
        }
    }

    @Test
    void shouldRethrowUncheckedExceptionOfRootAsIs() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final IllegalStateException thrown = new IllegalStateException("root failed");
            assertSame(thrown, assertThrows(IllegalStateException.class, () -> node.run(() -> {
                throw thrown;
            })));
            assertEquals(3L, node.run(() -> 3L).value(), "the node keeps working after a failed run");
        }
    }

    @Test
    void shouldRejectRunFromInsideAJob() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final DivvyException e = assertThrows(DivvyException.class, () -> node.run(() -> node.run(() -> 1)));
            assertTrue(e.getMessage().contains("spawn"), e.getMessage());
        }
    }

    @Test
    void closeShouldCancelARunUnderWaySoTheWorkersStopAtTheirNextSpawnOrSync() throws Exception {
        final DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).build());
        final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        final CompletableFuture<Long> run = CompletableFuture.supplyAsync(() -> node.run(() -> {
            started.countDown();
            return new Fib(10).fib(60); // would run for days
        }).value());
        // until this node's run is under way (not any worker thread of the JVM: other tests' nodes have some,
        // and closing before the run was submitted fails it with "the node is closed" instead)
        assertTrue(started.await(10, TimeUnit.SECONDS), "the run started");
        node.close(); // before the fix: "worker ... did not stop within 10000 ms"
        final ExecutionException e = assertThrows(ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof DivvyException && e.getCause().getMessage().contains("cancelled"),
            String.valueOf(e.getCause()));
    }

    @Test
    void aRunStartedWhileTheNodeClosesShouldEndToo() throws Exception {
        // close() and run() racing: a run published just as close() stops the workers must not wait forever
        for (int i = 0; i < 50; i++) {
            final DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build());
            final CompletableFuture<Long> run = CompletableFuture.supplyAsync(
                () -> node.run(() -> new Fib(10).fib(60)).value());
            Thread.sleep(i % 3);
            node.close();
            final ExecutionException e = assertThrows(ExecutionException.class, () -> run.get(10, TimeUnit.SECONDS),
                "round " + i);
            assertTrue(e.getCause() instanceof DivvyException, String.valueOf(e.getCause()));
        }
    }

    @Test
    void shouldRejectRunAfterClose() {
        final DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build());
        node.close();
        node.close();
        assertThrows(DivvyException.class, () -> node.run(() -> 1));
    }

    @Test
    void shouldRunWithDefaultConfigThroughDivvy() {
        final RunResult<Long> r = Divvy.run(() -> new Fib(10).fib(20));
        assertEquals(Fib.fibSequential(20), r.value());
        assertFalse(r.statistics().toString().isEmpty());
    }
}
