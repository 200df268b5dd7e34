package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.LongSpawn;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.Spawn;
import org.divvy.SyncRequiredException;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SpawnSyncTest {
    static DivvyNode node(final int workers) {
        return DivvyNode.start(NodeConfig.builder().workers(workers).build());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void shouldComputeFibWithAnyNumberOfWorkers(final int workers) {
        try (DivvyNode node = node(workers)) {
            final RunResult<Long> r = node.run(() -> new Fib(2).fib(22));
            assertEquals(Fib.fibSequential(22), r.value());
            assertEquals(r.statistics().jobsSpawned(), r.statistics().jobsExecuted(), r.statistics().toString());
            assertEquals(2 * (Fib.fibSequential(23) - 1), r.statistics().jobsSpawned(), "two spawns per fib(n>=2) call");
            assertEquals(workers, r.statistics().workerCount());
        }
    }

    static long chain(final int depth) {
        if (depth == 0) {
            return 0;
        }
        final Spawn<Long> next = TaskJob.spawn("chain", () -> chain(depth - 1));
        Spawns.sync();
        return next.get() + 1;
    }

    @Test
    void shouldRunDeepSpawnChainsOnWorkerStacks() {
        // Every level nests spawn, sync and the job runner on the worker's stack: the configured stack
        // size (16 MiB by default), not the JVM's default thread stack, bounds the depth.
        try (DivvyNode node = node(2)) {
            assertEquals(5_000L, node.run(() -> chain(5_000)).value());
        }
    }

    @Test
    void shouldReportStackOverflowInsteadOfHangingWhenRecursionOutgrowsWorkerStack() {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(2).workerStackSizeBytes(256 * 1024).build())) {
            for (int i = 0; i < 3; i++) {
                final StackOverflowError overflow = assertThrows(StackOverflowError.class,
                    () -> node.run(() -> chain(100_000)));
                assertTrue(overflow.getMessage() != null && overflow.getMessage().startsWith(
                    "a worker's stack overflowed (workerStackSizeBytes = 262144)") && overflow.getMessage().contains(
                    "raise --worker-stack-size-bytes"), "names the setting: " + overflow.getMessage());
                assertTrue(overflow.getStackTrace().length > 0, "keeps where it overflowed");
            }
            assertEquals(Fib.fibSequential(15), node.run(() -> new Fib(3).fib(15)).value(), "node still works");
        }
    }

    @Test
    void shouldRunManyRootsOneAfterAnother() {
        try (DivvyNode node = node(2)) {
            for (int n = 10; n < 20; n++) {
                final int arg = n;
                assertEquals(Fib.fibSequential(n), node.run(() -> new Fib(3).fib(arg)).value());
            }
        }
    }

    @Test
    void shouldRejectSpawnFromThreadThatIsNotAWorker() {
        final DivvyException e = assertThrows(DivvyException.class, () -> new Fib(2).fib(10));
        assertTrue(e.getMessage().contains("DivvyNode.run("), e.getMessage());
        assertTrue(e.getMessage().contains("spawn()"), e.getMessage());
    }

    @Test
    void shouldRejectSpawningTheSameJobTwice() {
        try (DivvyNode node = node(1)) {
            final DivvyException e = assertThrows(DivvyException.class, () -> node.run(() -> {
                final Fib.FibJob job = new Fib.FibJob(new Fib(2), 3);
                Spawns.spawn(job);
                Spawns.spawn(job);
                return 0;
            }));
            assertEquals("job `fib` spawned twice: a job record is spawned once", e.getMessage());
        }
    }

    @Test
    void shouldRejectReadingHandleBeforeSync() {
        try (DivvyNode node = node(2)) {
            final SyncRequiredException e = assertThrows(SyncRequiredException.class, () -> node.run(() -> {
                final LongSpawn h = new Fib(2).spawnFib(5);
                return h.get();
            }));
            assertEquals("handle of `fib` read before sync(): call sync() first", e.getMessage());
        }
    }

    @Test
    void shouldAllowReadingHandleAfterSyncButNotHandleSpawnedAfterIt() {
        try (DivvyNode node = node(2)) {
            final Fib fib = new Fib(2);
            final long value = node.run(() -> {
                final LongSpawn a = fib.spawnFib(10);
                Spawns.sync();
                final LongSpawn b = fib.spawnFib(11);
                final long aValue = a.get();
                assertThrows(SyncRequiredException.class, b::get);
                Spawns.sync();
                return aValue + b.get();
            }).value();
            assertEquals(Fib.fibSequential(12), value);
        }
    }

    @Test
    void shouldWaitOnlyForChildrenOfCurrentInvocation() {
        // The root's sync must not wait for the slow grandchild that its child left running? No: a child
        // always waits for its own children (implicit sync). Instead check that a child's sync returns
        // while its sibling, spawned by the root, is still running.
        try (DivvyNode node = node(2)) {
            final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            final String result = node.run(() -> {
                final Spawn<String> slow = TaskJob.spawn("slow", () -> {
                    assertTrue(release.await(30, TimeUnit.SECONDS));
                    return "slow";
                });
                final Spawn<String> nested = TaskJob.spawn("nested", () -> {
                    final Spawn<Integer> leaf = TaskJob.spawn("leaf", () -> 21);
                    Spawns.sync(); // waits for `leaf` only, not for `slow`
                    release.countDown();
                    return "nested" + (2 * leaf.get());
                });
                Spawns.sync();
                return nested.get() + "+" + slow.get();
            }).value();
            assertEquals("nested42+slow", result);
        }
    }

    @Test
    void shouldRunResultCallbacksOnParentThreadDuringSync() {
        try (DivvyNode node = node(2)) {
            final List<String> seen = node.run(() -> {
                final List<String> calls = new ArrayList<>();
                final Thread parentThread = Thread.currentThread();
                for (int i = 0; i < 20; i++) {
                    final int value = i;
                    TaskJob.spawn("child", () -> {
                        Thread.sleep(1);
                        return value;
                    }).onResult(v -> calls.add(v + (Thread.currentThread() == parentThread ? "@parent" : "@other")));
                }
                assertTrue(calls.isEmpty(), "inlets run during sync, not before");
                Spawns.sync();
                return calls;
            }).value();
            assertEquals(20, seen.size());
            assertTrue(seen.stream().allMatch(s -> s.endsWith("@parent")), seen.toString());
        }
    }

    @Test
    void shouldImplicitlySyncWhenInvocationReturnsWithOutstandingChildren() {
        try (DivvyNode node = node(2)) {
            final int[] sum = new int[1];
            node.run(() -> {
                final Spawn<Integer> outer = TaskJob.spawn("outer", () -> {
                    for (int i = 1; i <= 10; i++) {
                        final int v = i;
                        TaskJob.spawn("inner", () -> v).onResult(x -> sum[0] += x);
                    }
                    return 0; // returns without sync: the runtime syncs for it
                });
                Spawns.sync();
                return outer.get();
            });
            assertEquals(55, sum[0]);
        }
    }
}
