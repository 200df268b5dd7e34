package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyNode;
import org.divvy.Spawn;
import org.divvy.UnsyncedSpawnException;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job that returns with children it never synced fails with {@link UnsyncedSpawnException} (one node; two nodes:
 * {@code DistributedNodeTest}); its unsynced children are aborted, not waited for to the end. Children synced,
 * aborted or given an inlet before the return are no mistake (the last: {@code SpawnSyncTest}).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class UnsyncedSpawnTest {
    /** Parks in 1 ms steps for up to {@code millis}; stops early when asked to. */
    private static int parkFor(final long millis) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - deadlineNs < 0 && !Spawns.isCancelRequested()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        return 1;
    }

    @Test
    void shouldFailTheRunWhenTheRootReturnsWithAChildNeverSynced() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final UnsyncedSpawnException e = assertThrows(UnsyncedSpawnException.class, () -> node.run(() -> {
                TaskJob.spawn("leaf", () -> 1);
                return 0;
            }));
            assertTrue(e.getMessage().startsWith("the run's root returned with 1 child spawned after its last sync() and "
                + "never synced"), e.getMessage());
            assertTrue(e.getMessage().endsWith("call sync() before returning, or abort() the children it does not need"),
                e.getMessage());
        }
    }

    @Test
    void shouldFailAtTheParentsSyncAChildThatReturnsWithChildrenNeverSyncedAndAbortThem() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            // children that ran their 60 s park to its end without being asked to stop (the class's 20 s timeout
            // fails the test first if the failure waited for them)
            final java.util.concurrent.atomic.AtomicInteger ranToTheEnd = new java.util.concurrent.atomic.AtomicInteger();
            final UnsyncedSpawnException e = assertThrows(UnsyncedSpawnException.class, () -> node.run(() -> {
                final Spawn<Integer> forgetful = TaskJob.spawn("forgetful", () -> {
                    TaskJob.spawn("long", () -> parkFor(60_000) + (Spawns.isCancelRequested() ? 0 : ranToTheEnd.incrementAndGet()));
                    TaskJob.spawn("longer", () -> parkFor(60_000) + (Spawns.isCancelRequested() ? 0 : ranToTheEnd.incrementAndGet()));
                    return 1;
                });
                Spawns.sync();
                return forgetful.get();
            }));
            assertTrue(e.getMessage().startsWith("`forgetful` returned with 2 children spawned after its last sync()"),
                e.getMessage());
            assertEquals(0, ranToTheEnd.get(), "the unsynced children were aborted, not run to their end");
        }
    }

    @Test
    void shouldReportChildrenSpawnedAfterTheLastSync() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final UnsyncedSpawnException e = assertThrows(UnsyncedSpawnException.class, () -> node.run(() -> {
                final Spawn<Integer> first = TaskJob.spawn("first", () -> 1);
                Spawns.sync();
                TaskJob.spawn("second", () -> 2);
                return first.get();
            }));
            assertTrue(e.getMessage().startsWith("the run's root returned with 1 child"), e.getMessage());
        }
    }

    @Test
    void shouldCountOnlyTheChildrenWithoutAnInlet() {
        try (DivvyNode node = SpawnSyncTest.node(1)) {
            final int[] readByInlet = new int[1];
            final UnsyncedSpawnException e = assertThrows(UnsyncedSpawnException.class, () -> node.run(() -> {
                TaskJob.spawn("read", () -> 7).onResult(v -> readByInlet[0] = v);
                TaskJob.spawn("unread", () -> 8);
                return 0;
            }));
            assertTrue(e.getMessage().startsWith("the run's root returned with 1 child"), e.getMessage());
        }
    }

    @Test
    void shouldAcceptChildrenAbortedBeforeTheReturn() {
        try (DivvyNode node = SpawnSyncTest.node(2)) {
            final AtomicBoolean finishedItsPark = new AtomicBoolean();
            final int value = node.run(() -> {
                final Spawn<Integer> synced = TaskJob.spawn("synced", () -> 5);
                Spawns.sync();
                TaskJob.spawn("discarded", () -> {
                    parkFor(60_000);
                    finishedItsPark.set(!Spawns.isCancelRequested());
                    return 0;
                });
                Spawns.abort();
                return synced.get();
            }).value();
            assertEquals(5, value);
            assertTrue(!finishedItsPark.get(), "the aborted child stopped early");
        }
    }
}
