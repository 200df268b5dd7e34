package org.divvy.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.WireWriter;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.TaskAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The workers' side without a network: writes that arrived are applied at a safe point; a job whose guard fails
 * waits for late updates, then has its replicas fetched (here a test thread plays the agent) and runs on them.
 */
@Timeout(30)
class SafePointsTest {
    private final List<Throwable> errors = new ArrayList<>();
    private final SharingStatistics statistics = new SharingStatistics();
    private final WriteOutbox outbox = new WriteOutbox(statistics, () -> { });
    private final ReplicaTable replicas = new ReplicaTable(outbox, () -> { });
    /** How often the safe points woke an idle worker. */
    private final java.util.concurrent.atomic.AtomicInteger wakes = new java.util.concurrent.atomic.AtomicInteger();

    private SafePoints safePoints(final long guardWaitMs, final boolean guardFetch) {
        return new SafePoints(replicas, statistics, errors::add, TimeUnit.MILLISECONDS.toNanos(guardWaitMs), guardFetch,
            TimeUnit.SECONDS.toNanos(10), 1L << 30, wakes::incrementAndGet);
    }

    /** A grid as another node's replica of it: registered here under the id it came with. */
    private GridShared replicaOf(final GridShared original) {
        final WireWriter state = new WireWriter();
        assertTrue(original.divvyReplica().tryWriteState(state));
        final GridShared replica = (GridShared)replicas.resolve(original.divvyReplica().id(), GridShared.TYPE, 3);
        assertSame(replica.divvyReplica(), replicas.pollFetch(), "a new replica is fetched");
        replica.divvyReplica().readState(new org.divvy.codegen.WireReader(state.toByteArray()));
        return replica;
    }

    /** The body of an SO_UPDATE carrying {@code advance(version)} to each grid: grid, version, grid, version... */
    private static byte[] advances(final Object... gridsAndVersions) {
        final ExpandableArrayBuffer body = new ExpandableArrayBuffer(64);
        final int count = gridsAndVersions.length / 2;
        body.putInt(0, count, HeaderFlyweight.BYTE_ORDER);
        int at = 4;
        for (int i = 0; i < count; i++) {
            body.putLong(at, ((ReplicaCore)gridsAndVersions[2 * i]).id(), HeaderFlyweight.BYTE_ORDER);
            body.putInt(at + 8, 0, HeaderFlyweight.BYTE_ORDER);
            body.putInt(at + 12, 4, HeaderFlyweight.BYTE_ORDER);
            body.putInt(at + 16, (Integer)gridsAndVersions[2 * i + 1], HeaderFlyweight.BYTE_ORDER);
            at += 20;
        }
        final byte[] bytes = new byte[at];
        body.getBytes(0, bytes);
        return bytes;
    }

    /** The state of a grid of 8 at {@code version}, as a node answering a fetch sends it. */
    private static byte[] stateAt(final int version) {
        final GridShared source = new GridShared(8);
        source.advance(version);
        final WireWriter state = new WireWriter();
        assertTrue(source.divvyReplica().tryWriteState(state));
        return state.toByteArray();
    }

    /**
     * One reader holding one replica (another worker inside a read method) holds back only that replica's writes and
     * states, in the order they came; writes to other replicas and a fetched state a job waits for go ahead (before,
     * the whole queue waited behind the first held-back write).
     */
    @Test
    void shouldHoldBackOnlyTheWritesAndStatesOfTheReplicaBeingReadAndKeepTheirOrder() throws Exception {
        final SafePoints safePoints = safePoints(20, true);
        final GridShared read = replicaOf(new GridShared(8));
        final GridShared other = replicaOf(new GridShared(8));
        final GridShared fetched = (GridShared)replicas.resolve(new GridShared(8).divvyReplica().id(), GridShared.TYPE, 3);
        assertSame(fetched.divvyReplica(), replicas.pollFetch());
        final java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicInteger seen = new java.util.concurrent.atomic.AtomicInteger(-1);
        final Thread reader = new Thread(() -> seen.set(read.versionAround(() -> {
            reading.countDown();
            try {
                done.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })));
        reader.start();
        reading.await();
        safePoints.addUpdate(new UnsafeBuffer(advances(read.divvyReplica(), 3, other.divvyReplica(), 4)));
        safePoints.addState(read.divvyReplica(), new UnsafeBuffer(stateAt(7)));
        safePoints.addUpdate(new UnsafeBuffer(advances(read.divvyReplica(), 9)));
        safePoints.addState(fetched.divvyReplica(), new UnsafeBuffer(stateAt(2)));
        safePoints.addUpdate(new UnsafeBuffer(advances(other.divvyReplica(), 5)));
        safePoints.safePoint();
        assertEquals(5, other.version(), "writes to another replica go ahead, in order");
        assertFalse(fetched.divvyReplica().isAwaitingState(), "a fetched state goes ahead");
        assertEquals(2, fetched.version());
        assertEquals(0, read.version(), "nothing applied under the read");
        assertFalse(safePoints.isEmpty());
        safePoints.safePoint();
        assertEquals(0, read.version(), "still read: still held back");
        done.countDown();
        reader.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals(0, seen.get());
        safePoints.safePoint();
        assertEquals(9, read.version(), "write 3, state 7, write 9: in the order they came");
        assertEquals(9 * 36, read.sum(0, 8));
        assertTrue(safePoints.isEmpty());
        assertEquals(0, safePoints.queuedBytes());
        assertEquals(4, statistics.writesApplied());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    /** The body of an SO_UPDATE (from the write count on) carrying {@code grid.advance(version)}. */
    private static byte[] advance(final ReplicaCore grid, final int version) {
        final ExpandableArrayBuffer body = new ExpandableArrayBuffer(64);
        body.putInt(0, 1, HeaderFlyweight.BYTE_ORDER);
        body.putLong(4, grid.id(), HeaderFlyweight.BYTE_ORDER);
        body.putInt(12, 0, HeaderFlyweight.BYTE_ORDER); // advance is the first (only) write method
        body.putInt(16, 4, HeaderFlyweight.BYTE_ORDER);
        body.putInt(20, version, HeaderFlyweight.BYTE_ORDER);
        final byte[] bytes = new byte[24];
        body.getBytes(0, bytes);
        return bytes;
    }

    @Test
    void shouldApplyArrivedWritesOnlyAtASafePoint() {
        final SafePoints safePoints = safePoints(20, true);
        final GridShared grid = replicaOf(new GridShared(8));
        safePoints.addUpdate(new UnsafeBuffer(advance(grid.divvyReplica(), 3)));
        assertEquals(0, grid.version(), "not before a safe point");
        safePoints.safePoint();
        assertEquals(3, grid.version());
        assertEquals(3 * 36, grid.sum(0, 8));
        assertEquals(1, statistics.writesApplied());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    /** An idle worker parks up to idleDeepParkNs (50 ms): a write that arrives wakes one, so it is applied now. */
    @Test
    void shouldWakeAnIdleWorkerForEachWriteOrStateThatArrives() {
        final SafePoints safePoints = safePoints(20, true);
        final GridShared grid = replicaOf(new GridShared(8));
        safePoints.addUpdate(new UnsafeBuffer(advance(grid.divvyReplica(), 1)));
        assertEquals(1, wakes.get(), "a write arrived");
        safePoints.addState(grid.divvyReplica(), new UnsafeBuffer(new byte[0]));
        assertEquals(2, wakes.get(), "a state arrived");
    }

    /**
     * A read method that spawns, syncs or polls holds its replica's read lock at that safe point: a write to the replica
     * waits for a later safe point instead of waiting for the lock, which this very thread holds (a deadlock before).
     */
    @Test
    void shouldHoldBackAWriteToAReplicaItsOwnThreadIsReadingInsteadOfDeadlocking() {
        final SafePoints safePoints = safePoints(20, true);
        final GridShared grid = replicaOf(new GridShared(8));
        final GridShared other = replicaOf(new GridShared(8));
        safePoints.addUpdate(new UnsafeBuffer(advance(grid.divvyReplica(), 3)));
        safePoints.addUpdate(new UnsafeBuffer(advance(other.divvyReplica(), 4)));
        final int seenInside = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> grid.versionAround(safePoints::safePoint),
            "a safe point inside a read of the replica its write is for");
        assertEquals(0, seenInside, "not applied under the read");
        assertEquals(4, other.version(), "a write to another replica goes ahead");
        assertFalse(safePoints.isEmpty());
        safePoints.safePoint();
        assertEquals(3, grid.version(), "applied at the next safe point");
        assertTrue(safePoints.isEmpty());
        assertEquals(2, statistics.writesApplied());
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void shouldSkipWritesToObjectsWithoutReplicaHere() {
        final SafePoints safePoints = safePoints(20, true);
        safePoints.addUpdate(new UnsafeBuffer(advance(new GridShared(4).divvyReplica(), 1)));
        safePoints.safePoint();
        assertEquals(1, statistics.writesWithoutReplica());
        assertTrue(safePoints.isEmpty());
    }

    @Test
    void shouldRunAJobWhoseGuardHoldsAtOnce() {
        final GridShared grid = replicaOf(new GridShared(8));
        safePoints(20, true).beforeRemoteJob(new SharingJobsJobs.SumAtJob(new SharingJobs(), 0, 0, 8, grid));
        assertEquals(0, statistics.guardFailures());
        assertNull(replicas.pollFetch());
    }

    @Test
    void shouldWaitForALateUpdateWhenTheGuardFails() throws InterruptedException {
        final SafePoints safePoints = safePoints(5_000, true);
        final GridShared grid = replicaOf(new GridShared(8));
        final Thread agent = new Thread(() -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            safePoints.addUpdate(new UnsafeBuffer(advance(grid.divvyReplica(), 1)));
        });
        agent.start();
        safePoints.beforeRemoteJob(new SharingJobsJobs.SumAtJob(new SharingJobs(), 1, 0, 8, grid));
        agent.join();
        assertEquals(1, grid.version());
        assertEquals(1, statistics.guardFailures());
        assertEquals(1, statistics.guardsHeldAfterWait());
        assertEquals(0, statistics.guardFetches());
        assertNull(replicas.pollFetch(), "no fetch: the update came in time");
    }

    @Test
    void shouldFetchFreshReplicasWhenTheGuardStillFailsAfterTheWait() throws InterruptedException {
        final SafePoints safePoints = safePoints(10, true);
        final GridShared original = new GridShared(8);
        final GridShared grid = replicaOf(original);
        original.advance(2); // the source's replica moved on; the update to this one was lost
        final Thread agent = new Thread(() -> {
            ReplicaCore asked;
            while ((asked = replicas.pollFetch()) == null) {
                LockSupport.parkNanos(100_000);
            }
            final WireWriter state = new WireWriter();
            assertTrue(original.divvyReplica().tryWriteState(state));
            safePoints.addState(asked, new UnsafeBuffer(state.toByteArray()));
        });
        agent.start();
        safePoints.beforeRemoteJob(new SharingJobsJobs.SumAtJob(new SharingJobs(), 2, 0, 8, grid));
        agent.join();
        assertEquals(2, grid.version(), "the job runs on the fetched replica");
        assertFalse(grid.divvyReplica().isAwaitingState());
        assertEquals(1, statistics.guardFetches());
        assertEquals(0, statistics.guardsFailingAfterFetch());
    }

    @Test
    void shouldRunOnTheReplicaAtHandWhenFetchingIsOff() {
        final GridShared grid = replicaOf(new GridShared(8));
        safePoints(1, false).beforeRemoteJob(new SharingJobsJobs.SumAtJob(new SharingJobs(), 5, 0, 8, grid));
        assertEquals(1, statistics.guardFailures());
        assertEquals(0, statistics.guardFetches());
        assertNull(replicas.pollFetch());
    }

    /** Cancels {@code job} after 50 ms from another thread, as its owner's abort would reach this node. */
    private static Thread cancelSoon(final SharingJobsJobs.SumAtJob job) {
        final Thread owner = new Thread(() -> {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            TaskAccess.requestCancel(job);
        });
        owner.start();
        return owner;
    }

    @Test
    void shouldStopWaitingForAReplicaWhenTheJobIsCancelled() throws InterruptedException {
        final SafePoints safePoints = safePoints(20, true); // a replica's state is waited for 10 s
        final GridShared grid = (GridShared)replicas.resolve(new GridShared(8).divvyReplica().id(), GridShared.TYPE, 3);
        assertTrue(grid.divvyReplica().isAwaitingState(), "its state never comes");
        final SharingJobsJobs.SumAtJob job = new SharingJobsJobs.SumAtJob(new SharingJobs(), 0, 0, 8, grid);
        final Thread owner = cancelSoon(job);
        final long startNs = System.nanoTime();
        safePoints.beforeRemoteJob(job);
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        owner.join();
        assertTrue(waitedMs < 5_000, "gave up when cancelled, not after the 10 s wait: " + waitedMs + " ms");
        assertEquals(0, statistics.guardFailures(), "nor checked its guard");
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void shouldStopWaitingForTheGuardAndNotFetchWhenTheJobIsCancelled() throws InterruptedException {
        final SafePoints safePoints = safePoints(20_000, true);
        final GridShared grid = replicaOf(new GridShared(8));
        final SharingJobsJobs.SumAtJob job = new SharingJobsJobs.SumAtJob(new SharingJobs(), 7, 0, 8, grid); // never version 7
        final Thread owner = cancelSoon(job);
        final long startNs = System.nanoTime();
        safePoints.beforeRemoteJob(job);
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        owner.join();
        assertTrue(waitedMs < 10_000, "gave up when cancelled, not after guardWaitMs=20000: " + waitedMs + " ms");
        assertEquals(1, statistics.guardFailures());
        assertEquals(0, statistics.guardFetches(), "a cancelled job fetches nothing");
        assertNull(replicas.pollFetch());
    }
}
