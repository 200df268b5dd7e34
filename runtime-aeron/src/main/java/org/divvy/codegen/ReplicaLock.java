package org.divvy.codegen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The read-write lock of one replica, biased to readers: reads (every method call of a shared object) are far
 * more frequent than writes, and come from every worker of the node at once.
 *
 * <p>Why not {@code ReentrantReadWriteLock}: its read lock is one CAS on one shared word plus a per-thread hold
 * count, so two workers reading the same replica bounce that cache line between cores: 200-270 ns per read with
 * two threads here, against 8 ns with one (perf's {@code ReplicaLockCost}). Here each reading thread counts
 * itself in a stripe of its own ({@code STRIPES} padded counters chosen by thread id), so readers on different
 * cores share no line; a writer announces itself and waits until every stripe is zero.
 *
 * <p>Protocol. {@code state} is FREE, PENDING (a writer waits for readers to drain) or ACTIVE (a writer is
 * inside). A reader adds 1 to its stripe, then reads {@code state}: FREE, it is in; ACTIVE, it takes its 1 back
 * and waits for FREE; PENDING, it is in only if its stripe was not 0 before (it may already hold a read: a read
 * method calling another; refusing it would deadlock against the writer waiting for its outer read), else it
 * takes its 1 back and waits. A writer (one at a time: {@code writers}) sets PENDING, waits until every stripe is
 * 0, sets ACTIVE, and waits until every stripe is 0 again: a reader that came in under PENDING through a stripe
 * shared with another reader is counted then, and no reader enters under ACTIVE ({@link #tryWriteLock} bounds both
 * waits and backs out, holding nothing, when either runs out). Counter updates and
 * {@code state} are sequentially consistent (getAndAdd, volatile), so a reader either sees the writer's state or
 * the writer sees its count. A thread holding the write lock may read (token -1: not counted) and write again
 * (reentrant). A thread holding only a read must not write: it would wait for its own read (the rule of shared
 * classes: a method that is not {@code @Write} must not call one; the processor rejects such a call on {@code this}). Readers that share a stripe (thread ids 32 apart)
 * can keep a waiting writer out while they overlap, as readers of a reader-preferring lock can: a write waits for
 * a pause in the reads of that stripe.
 */
public final class ReplicaLock {
    private static final int STRIPES = 32;
    /** Longs between two stripes' counters: 128 bytes, two cache lines, so no two stripes share one. */
    private static final int PAD = 16;
    private static final int FREE = 0;
    private static final int PENDING = 1;
    private static final int ACTIVE = 2;
    /** Back-off steps {@link #tryWriteLock} waits for readers: spins only (a few microseconds), never a park. */
    private static final int TRY_SPINS = 64;
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] counts = new long[STRIPES * PAD + PAD];
    private final ReentrantLock writers = new ReentrantLock();
    private volatile int state = FREE;
    /**
     * Runs in {@link #tryWriteLock} when the readers drained under PENDING, before ACTIVE: where a nested read slips
     * in through a shared stripe. A no-op but in tests, which put a reader there that a real race puts there rarely.
     */
    private final Runnable readersDrained;

    public ReplicaLock() {
        this(() -> { });
    }

    /** For tests: {@code readersDrained} runs where a reader can slip in under PENDING (see the field). */
    ReplicaLock(final Runnable readersDrained) {
        this.readersDrained = readersDrained;
    }

    /** Enters a read; returns the token {@link #readUnlock} takes. */
    public int readLock() {
        if (state != FREE && writers.isHeldByCurrentThread()) {
            return -1; // inside this thread's own write: exclusive already
        }
        final int at = stripe();
        for (int spins = 0;; spins++) {
            final long before = (long)COUNTS.getAndAdd(counts, at, 1L);
            final int s = state;
            if (s == FREE || (s == PENDING && before > 0)) {
                return at;
            }
            COUNTS.getAndAdd(counts, at, -1L);
            while (state != FREE) {
                backOff(spins++);
            }
        }
    }

    public void readUnlock(final int token) {
        if (token >= 0) {
            COUNTS.getAndAdd(counts, token, -1L);
        }
    }

    /** Enters a read only if no writer is in or waiting (the network agent must not block); true when it did. */
    public boolean tryReadLock() {
        final int at = stripe();
        COUNTS.getAndAdd(counts, at, 1L);
        if (state == FREE) {
            return true;
        }
        COUNTS.getAndAdd(counts, at, -1L);
        return false;
    }

    /** Unlocks what {@link #tryReadLock} took. */
    public void tryReadUnlock() {
        COUNTS.getAndAdd(counts, stripe(), -1L);
    }

    public void writeLock() {
        writers.lock();
        if (writers.getHoldCount() > 1) {
            return; // a write within this thread's write
        }
        state = PENDING;
        awaitNoReaders();
        state = ACTIVE;
        awaitNoReaders();
    }

    /**
     * Enters the write only if no writer is in (this thread included) and the readers drain within a few spins, both
     * times (under PENDING, then under ACTIVE); false, holding nothing, otherwise. For the safe points that apply writes from other nodes: the reader they would wait for may be their
     * own thread (a read method that spawns, syncs or polls reaches a safe point while it holds its read), and a
     * blocking {@link #writeLock} would wait for it forever; a write not applied now waits for the next safe point.
     */
    public boolean tryWriteLock() {
        if (writers.isHeldByCurrentThread() || !writers.tryLock()) {
            return false; // inside this thread's own write (a write method that spawns): never in the middle of it
        }
        state = PENDING;
        if (!awaitNoReaders(TRY_SPINS)) {
            state = FREE;
            writers.unlock();
            return false;
        }
        readersDrained.run();
        state = ACTIVE;
        // a nested read let in under PENDING through a stripe another reader held: usually short, but it may be a read
        // method in sync waiting for a child on this thread's own stack, so this wait is bounded too; nothing is
        // written yet, so backing out is safe (the readers waiting for FREE go on, the write waits for a later safe point)
        if (!awaitNoReaders(TRY_SPINS)) {
            state = FREE;
            writers.unlock();
            return false;
        }
        return true;
    }

    public void writeUnlock() {
        if (writers.getHoldCount() == 1) {
            state = FREE;
        }
        writers.unlock();
    }

    /** This thread's counter: thread ids are consecutive, so workers started together get stripes of their own. */
    private static int stripe() {
        return PAD + PAD * (int)(Thread.currentThread().getId() & (STRIPES - 1));
    }

    /**
     * For tests: counts this thread in its stripe whatever the state, as a nested read let in under PENDING through
     * a stripe another reader held is counted; {@link #readUnlock} takes the token back.
     */
    int enterReadUnchecked() {
        final int at = stripe();
        COUNTS.getAndAdd(counts, at, 1L);
        return at;
    }

    private void awaitNoReaders() {
        awaitNoReaders(Integer.MAX_VALUE);
    }

    /** Waits until every stripe is 0, at most {@code maxSpins} back-off steps; whether they all were. */
    private boolean awaitNoReaders(final int maxSpins) {
        for (int spins = 0; spins < maxSpins; spins++) {
            boolean none = true;
            for (int at = PAD; at < counts.length; at += PAD) {
                if ((long)COUNTS.getVolatile(counts, at) != 0) {
                    none = false;
                    break;
                }
            }
            if (none) {
                return true;
            }
            backOff(spins);
        }
        return false;
    }

    private static void backOff(final int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else if (spins < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(50_000);
        }
    }
}
