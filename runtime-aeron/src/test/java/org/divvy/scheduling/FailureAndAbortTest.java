package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.divvy.DivvyNode;
import org.divvy.JobAbortedException;
import org.divvy.RunResult;
import org.divvy.Spawn;
import org.divvy.SpawnFailedException;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FailureAndAbortTest {

    @Test
    void shouldRethrowLowestIndexFailureAtSyncWithOthersSuppressed() {
        // Two workers and a latch: both children fail, the later-indexed one possibly first in time.
        final int workers = 2;
        try (DivvyNode node = SpawnSyncTest.node(workers)) {
            final CountDownLatch bothFailed = new CountDownLatch(2);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.run(() -> {
                TaskJob.spawn("ok", () -> 1);
                TaskJob.spawn("first", () -> {
                    bothFailed.countDown();
                    assertTrue(bothFailed.await(10, TimeUnit.SECONDS));
                    throw new IllegalStateException("child 1");
                });
                TaskJob.spawn("second", () -> {
                    bothFailed.countDown();
                    assertTrue(bothFailed.await(10, TimeUnit.SECONDS));
                    throw new IllegalArgumentException("child 2");
                });
                Spawns.sync();
                return 0;
            }));
            assertEquals("child 1", e.getMessage());
            assertEquals(1, e.getSuppressed().length, "the other failure is suppressed");
            assertEquals("child 2", e.getSuppressed()[0].getMessage());
        }
    }

    @Test
    void shouldAbortRemainingSiblingsWhenChildFails() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final AtomicInteger ran = new AtomicInteger();
            final List<Spawn<Integer>> handles = new ArrayList<>();
            assertThrows(ArithmeticException.class, () -> node.run(() -> {
                // One worker, LIFO: the last spawned (the failing one) runs first, then sync sees the
                // failure and cancels the queued siblings before they start.
                for (int i = 0; i < 10; i++) {
                    handles.add(TaskJob.spawn("sibling", ran::incrementAndGet));
                }
                TaskJob.spawn("failing", () -> 1 / 0);
                Spawns.sync();
                return 0;
            }));
            assertEquals(0, ran.get(), "queued siblings never ran");
            for (final Spawn<Integer> h : handles) {
                assertTrue(h.isDone());
                assertThrows(JobAbortedException.class, h::get);
            }
        }
    }

    @Test
    void shouldWrapCheckedExceptionNamingTheJob() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final IOException cause = new IOException("disk");
            final SpawnFailedException e = assertThrows(SpawnFailedException.class, () -> node.run(() -> {
                TaskJob.spawn("readBlock", () -> {
                    throw cause;
                });
                Spawns.sync();
                return 0;
            }));
            assertSame(cause, e.getCause());
            assertTrue(e.getMessage().contains("`readBlock`"), e.getMessage());
        }
    }

    @Test
    void shouldWrapCheckedExceptionOfRootTask() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final SpawnFailedException e = assertThrows(SpawnFailedException.class, () -> node.run(() -> {
                throw new IOException("root");
            }));
            assertEquals("root", e.getCause().getMessage());
            assertTrue(e.getMessage().startsWith("the root task failed"), e.getMessage());
        }
    }

    @Test
    void shouldLetFailureCallbackConsumeTheException() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final RunResult<String> r = node.run(() -> {
                final List<String> failures = new ArrayList<>();
                final Spawn<Integer> failing = TaskJob.<Integer>spawn("failing", () -> {
                    throw new IllegalStateException("boom");
                }).onFailure(t -> failures.add(t.getMessage()));
                final Spawn<Integer> fine = TaskJob.spawn("fine", () -> 7);
                Spawns.sync(); // does not throw: the inlet took the exception
                assertThrows(IllegalStateException.class, failing::get);
                return failures + "/" + fine.get();
            });
            assertEquals("[boom]/7", r.value());
        }
    }

    @Test
    void shouldCancelQueuedAndRunningChildrenOnAbort() {
        // A search: one child finds the answer quickly; its inlet aborts the others. One sibling runs
        // "forever" (spawning and syncing in a loop) and must stop; the queued ones must never start.
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final AtomicBoolean longRunnerStarted = new AtomicBoolean();
            final AtomicLong longRunnerRounds = new AtomicLong();
            final AtomicInteger queuedStarted = new AtomicInteger();
            final RunResult<String> r = node.run(() -> {
                final List<String> found = new ArrayList<>();
                final Spawn<Integer> longRunner = TaskJob.spawn("longRunner", () -> {
                    longRunnerStarted.set(true);
                    for (;;) { // stops only through abort, noticed at spawn/sync
                        TaskJob.spawn("step", () -> 1);
                        Spawns.sync();
                        longRunnerRounds.incrementAndGet();
                    }
                });
                final List<Spawn<Integer>> queued = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    queued.add(TaskJob.spawn("queued", () -> {
                        queuedStarted.incrementAndGet();
                        Thread.sleep(5);
                        return 0;
                    }));
                }
                TaskJob.spawn("hit", () -> {
                    // let the long runner start on the other worker
                    while (!longRunnerStarted.get()) {
                        Thread.sleep(1);
                    }
                    return 42;
                }).onResult(v -> {
                    found.add("hit=" + v);
                    Spawns.abort();
                });
                Spawns.sync();
                assertTrue(longRunner.isDone());
                assertThrows(JobAbortedException.class, longRunner::get);
                int cancelled = 0;
                for (final Spawn<Integer> q : queued) {
                    try {
                        q.get();
                    } catch (final JobAbortedException e) {
                        cancelled++;
                    }
                }
                return found + " cancelledQueued=" + (cancelled + queuedStarted.get() >= 5);
            });
            assertEquals("[hit=42] cancelledQueued=true", r.value());
            assertTrue(r.statistics().jobsCancelled() >= 1, r.statistics().toString());
        }
    }

    @Test
    void shouldAbortChildrenOfAbortedRunningChild() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final CountDownLatch grandchildRunning = new CountDownLatch(1);
            final AtomicInteger grandchildrenFinished = new AtomicInteger();
            final String result = node.run(() -> {
                final Spawn<Integer> child = TaskJob.spawn("child", () -> {
                    for (int i = 0; i < 1000; i++) {
                        TaskJob.spawn("grandchild", () -> {
                            grandchildRunning.countDown();
                            Thread.sleep(2);
                            grandchildrenFinished.incrementAndGet();
                            return 0;
                        });
                    }
                    Spawns.sync();
                    return 1;
                });
                assertTrue(grandchildRunning.await(10, TimeUnit.SECONDS));
                Spawns.abort();
                Spawns.sync();
                return child.isDone() + "/" + assertThrows(JobAbortedException.class, child::get).getClass().getSimpleName();
            }).value();
            assertEquals("true/JobAbortedException", result);
            assertTrue(grandchildrenFinished.get() < 1000, "most grandchildren were cancelled: " + grandchildrenFinished.get());
        }
    }

    @Test
    void shouldReportAbortedHandleAfterSync() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final JobAbortedException e = node.run(() -> {
                final Spawn<Integer> h = TaskJob.spawn("victim", () -> 1);
                Spawns.abort();
                Spawns.sync();
                assertTrue(h.isDone());
                return assertThrows(JobAbortedException.class, h::get);
            }).value();
            assertTrue(e.getMessage().contains("`victim`"), e.getMessage());
            assertTrue(e.getMessage().contains("aborted"), e.getMessage());
        }
    }
}
