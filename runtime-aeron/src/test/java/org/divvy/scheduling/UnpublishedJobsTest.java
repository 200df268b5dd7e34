package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.divvy.DivvyNode;
import org.divvy.JobAbortedException;
import org.divvy.LongSpawn;
import org.divvy.RunResult;
import org.divvy.Spawn;
import org.divvy.TestCluster;
import org.divvy.codegen.Spawns;
import org.divvy.stealing.TestJobs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lazy task creation: a spawn leaves its job unpublished while the worker's deque offers thieves
 * {@link Worker#STEALABLE_SURPLUS} jobs. The program computes the same, and spawn, sync, inlets, abort
 * and failures behave as for a queued job: the child runs only in its parent's sync, newest first.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnpublishedJobsTest {
    @RegisterExtension
    final TestCluster cluster = new TestCluster();

    /** The child's status as the scheduler sees it. */
    private static int status(final Object handle) {
        return ((Task)handle).status;
    }

    @Test
    void shouldLeaveChildrenUnpublishedOnceTheDequeOffersEnoughAndRunThemOnlyInSyncNewestFirst() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final String report = node.run(() -> {
                final List<Integer> ranInOrder = new ArrayList<>();
                final List<Spawn<Integer>> children = new ArrayList<>();
                for (int i = 0; i < Worker.STEALABLE_SURPLUS + 2; i++) {
                    final int index = i;
                    children.add(TaskJob.spawn("child" + i, () -> {
                        ranInOrder.add(index);
                        return index * 10;
                    }));
                }
                final StringBuilder statuses = new StringBuilder();
                for (final Spawn<Integer> child : children) {
                    statuses.append(status(child) == Task.UNPUBLISHED ? 'U' : status(child) == Task.NEW ? 'N' : '?');
                }
                final boolean noneRanBeforeSync = ranInOrder.isEmpty();
                Spawns.sync();
                int sum = 0;
                for (final Spawn<Integer> child : children) {
                    sum += child.get();
                }
                return statuses + " " + noneRanBeforeSync + " " + ranInOrder + " " + sum;
            }).value();
            assertEquals("NNNUU true [4, 3, 2, 1, 0] 100", report,
                "three queued for thieves, the rest unpublished; nothing runs before sync; sync runs the newest first");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldComputeTheSameAnswerWithUnpublishedJobsAndRunEachOnce(final int workers) {
        try (DivvyNode node = SpawnSyncTest.node(workers)) {
            final RunResult<Long> r = node.run(() -> new Fib(2).fib(24));
            assertEquals(Fib.fibSequential(24), r.value());
            assertEquals(r.statistics().jobsSpawned(), r.statistics().jobsExecuted(), r.statistics().toString());
        }
    }

    @Test
    void shouldRunInletsOfUnpublishedChildrenOnTheParentsThreadDuringSync() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final String report = node.run(() -> {
                final String parentThread = Thread.currentThread().getName();
                final List<String> inlets = new ArrayList<>();
                for (int i = 0; i < Worker.STEALABLE_SURPLUS; i++) {
                    TaskJob.spawn("filler", () -> 0);
                }
                final Spawn<Integer> value = TaskJob.spawn("value", () -> 7);
                final Spawn<Integer> failing = TaskJob.<Integer>spawn("failing", () -> {
                    throw new IllegalStateException("boom");
                });
                final boolean bothUnpublished = status(value) == Task.UNPUBLISHED && status(failing) == Task.UNPUBLISHED;
                value.onResult(v -> inlets.add("result " + v + (Thread.currentThread().getName().equals(parentThread) ? " here" : " elsewhere")));
                failing.onFailure(t -> inlets.add("failure " + t.getMessage() +
                    (Thread.currentThread().getName().equals(parentThread) ? " here" : " elsewhere")));
                final boolean noInletBeforeSync = inlets.isEmpty();
                Spawns.sync(); // does not throw: the failure inlet took the exception
                inlets.sort(null);
                return bothUnpublished + " " + noInletBeforeSync + " " + inlets + " " + value.get();
            }).value();
            assertEquals("true true [failure boom here, result 7 here] 7", report);
        }
    }

    @Test
    void shouldLetAFrameSpawnAgainAfterCatchingAFailureThatItsSyncRethrew() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final String report = node.run(() -> {
                for (int i = 0; i < Worker.STEALABLE_SURPLUS; i++) {
                    TaskJob.spawn("filler", () -> 0);
                }
                final Spawn<Integer> failing = TaskJob.<Integer>spawn("failing", () -> {
                    throw new IllegalStateException("boom");
                });
                final boolean unpublished = status(failing) == Task.UNPUBLISHED;
                String caught = "nothing";
                try {
                    Spawns.sync(); // runs the children on this thread, then throws the failure
                } catch (final IllegalStateException e) {
                    caught = e.getMessage();
                }
                final Spawn<Integer> again = TaskJob.spawn("again", () -> 5); // the frame is current again
                Spawns.sync();
                return unpublished + " " + caught + " " + again.get();
            }).value();
            assertEquals("true boom 5", report);
        }
    }

    @Test
    void shouldLetAnInletSpawnIntoItsFrameAfterItsChildRanInSync() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final String report = node.run(() -> {
                for (int i = 0; i < Worker.STEALABLE_SURPLUS; i++) {
                    TaskJob.spawn("filler", () -> 0);
                }
                final List<Spawn<Integer>> spawnedByInlet = new ArrayList<>();
                final Spawn<Integer> first = TaskJob.spawn("first", () -> 3);
                final boolean unpublished = status(first) == Task.UNPUBLISHED;
                first.onResult(v -> spawnedByInlet.add(TaskJob.spawn("second", () -> v * 2)));
                Spawns.sync(); // runs first, then its inlet (which spawns second), then second
                return unpublished + " " + first.get() + " " + spawnedByInlet.size() + " " + spawnedByInlet.get(0).get();
            }).value();
            assertEquals("true 3 1 6", report);
        }
    }

    @Test
    void shouldCancelUnpublishedChildrenOnAbortSoTheyNeverRun() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final AtomicInteger ran = new AtomicInteger();
            final RunResult<String> r = node.run(() -> {
                final List<Spawn<Integer>> children = new ArrayList<>();
                for (int i = 0; i < Worker.STEALABLE_SURPLUS + 3; i++) {
                    children.add(TaskJob.spawn("victim", ran::incrementAndGet));
                }
                final int unpublished = (int)children.stream().filter(c -> status(c) == Task.UNPUBLISHED).count();
                Spawns.abort();
                Spawns.sync();
                int aborted = 0;
                for (final Spawn<Integer> child : children) {
                    assertTrue(child.isDone());
                    try {
                        child.get();
                    } catch (final JobAbortedException e) {
                        aborted++;
                    }
                }
                return unpublished + " unpublished, " + aborted + " aborted";
            });
            assertEquals("3 unpublished, 6 aborted", r.value());
            assertEquals(0, ran.get(), "no aborted child ran");
            assertEquals(6, r.statistics().jobsCancelled(), r.statistics().toString());
        }
    }

    @Test
    void shouldAbortRemainingSiblingsWhenAnUnpublishedChildFails() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final AtomicInteger ran = new AtomicInteger();
            final List<Spawn<Integer>> siblings = new ArrayList<>();
            final AtomicReference<String> failingStatus = new AtomicReference<>();
            final ArithmeticException e = assertThrows(ArithmeticException.class, () -> node.run(() -> {
                for (int i = 0; i < Worker.STEALABLE_SURPLUS + 2; i++) {
                    siblings.add(TaskJob.spawn("sibling", ran::incrementAndGet));
                }
                final Spawn<Integer> failing = TaskJob.spawn("failing", () -> 1 / 0);
                failingStatus.set(status(failing) == Task.UNPUBLISHED ? "unpublished" : "queued");
                Spawns.sync();
                return 0;
            }));
            assertEquals("/ by zero", e.getMessage());
            assertEquals("unpublished", failingStatus.get());
            assertEquals(0, ran.get(), "the newest child failed first, and sync aborted the others before they started");
            for (final Spawn<Integer> sibling : siblings) {
                assertThrows(JobAbortedException.class, sibling::get);
            }
        }
    }

    @Test
    void shouldPublishOlderUnpublishedChildrenWhenThievesTookTheQueuedOnes() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            // The premise (three queued, three unpublished) needs the other worker not parked at the spawns, which
            // timing decides; a run where it did not hold is tried again.
            for (int attempt = 0; attempt < 100; attempt++) {
                final String report = node.run(() -> {
                    final List<Spawn<Integer>> queued = new ArrayList<>();
                    for (int i = 0; i < Worker.STEALABLE_SURPLUS; i++) {
                        queued.add(TaskJob.spawn("queued", () -> 0));
                    }
                    final AtomicReference<List<Spawn<Integer>>> older = new AtomicReference<>();
                    final Spawn<Integer> u0 = TaskJob.spawn("older0", () -> 0);
                    final Spawn<Integer> u1 = TaskJob.spawn("older1", () -> 0);
                    older.set(List.of(u0, u1)); // before newest exists: a thief may run it at once
                    final Spawn<Integer> newest = TaskJob.spawn("newest", () ->
                        older.get().stream().noneMatch(o -> status(o) == Task.UNPUBLISHED) ? 1 : 0);
                    final boolean premise = status(u0) == Task.UNPUBLISHED && status(u1) == Task.UNPUBLISHED &&
                        status(newest) == Task.UNPUBLISHED;
                    if (premise) {
                        awaitNotNew(queued, "the other worker never took the queued jobs");
                    }
                    Spawns.sync();
                    return premise + " " + newest.get();
                }).value();
                if (report.startsWith("true")) {
                    assertEquals("true 1", report, "when the newest ran, its older siblings had been published");
                    return;
                }
            }
            throw new AssertionError("three children were never left unpublished in 100 runs");
        }
    }

    /**
     * A parent that runs unpublished on node A (its deque held three older jobs when it was spawned) spawns a
     * child once a thief on node B has taken those; the child is published, B steals it, and its result and
     * inlet come back to the parent on A. The child's stamp is derived through the unpublished parent.
     */
    @Test
    void shouldLetAPeerStealTheChildOfAnUnpublishedParent() throws Exception {
        final DivvyNode a = cluster.start(cluster.nodeSettings().acceptableHeartbeatPauseMs(3000).join(null));
        final CountDownLatch parentRunning = new CountDownLatch(1);
        final AtomicReference<String> inletThread = new AtomicReference<>();
        final AtomicReference<String> parentThread = new AtomicReference<>();
        final CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> a.run(() -> {
            final List<LongSpawn> older = new ArrayList<>();
            for (int i = 0; i < Worker.STEALABLE_SURPLUS; i++) {
                older.add(TestJobs.spawnWork(1, ""));
            }
            final Spawn<Long> parent = TaskJob.spawn("parent", () -> {
                parentThread.set(Thread.currentThread().getName());
                parentRunning.countDown();
                // A's only worker runs this job, so only node B can take the three older jobs
                awaitNotNew(older, "the older jobs were never stolen by node B");
                final LongSpawn child = TestJobs.spawnWork(20, "");
                final boolean published = status(child) == Task.NEW;
                child.onResult(v -> inletThread.set(Thread.currentThread().getName()));
                awaitNotNew(List.of(child), "the published child was never stolen by node B");
                Spawns.sync();
                return published ? child.get() : -1;
            });
            final boolean parentUnpublished = status(parent) == Task.UNPUBLISHED;
            Spawns.sync();
            long sum = parent.get();
            for (final LongSpawn job : older) {
                sum += job.get();
            }
            return parentUnpublished + " " + sum;
        }).value());
        assertTrue(parentRunning.await(20, TimeUnit.SECONDS), "the parent started on node A");
        final DivvyNode b = cluster.start(cluster.nodeSettings().acceptableHeartbeatPauseMs(3000).join(a.endpoint()));
        assertEquals("true 23", run.get(40, TimeUnit.SECONDS), "parent unpublished; 20 ms from the child plus 3 x 1 ms");
        assertEquals(parentThread.get(), inletThread.get(), "the stolen child's inlet ran on its parent's thread, on node A");
        assertEquals(4, b.networkStatistics().remoteJobsRun(), "node B ran the three older jobs and the child:\n" +
            b.networkStatistics());
        assertFalse(a.networkStatistics().remoteJobsRun() > 0, "node A ran nothing for B");
    }

    /** Waits (1 ms steps, 20 s at most) until none of {@code jobs} is NEW any more: a thief took them. */
    private static void awaitNotNew(final List<? extends Object> jobs, final String failure) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (jobs.stream().anyMatch(j -> status(j) == Task.NEW)) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(failure);
            }
            Thread.sleep(1);
        }
    }
}
