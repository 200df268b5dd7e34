package org.divvy.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The replica lock: readers never see half a write under contention; nested reads and writes do not deadlock. */
@Timeout(60)
class ReplicaLockTest {
    private final ReplicaLock lock = new ReplicaLock();
    /** Two halves a write changes together; a read that sees them differ saw half a write. */
    private long a;
    private long b;

    @Test
    void shouldNeverLetAReaderSeeHalfAWrite() throws InterruptedException {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong torn = new AtomicLong();
        final AtomicLong reads = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                long n = 0;
                while (!stop.get()) {
                    final int token = lock.readLock();
                    try {
                        if (a != b) {
                            torn.incrementAndGet();
                        }
                        final int inner = lock.readLock(); // a read method calling another
                        lock.readUnlock(inner);
                    } finally {
                        lock.readUnlock(token);
                    }
                    n++;
                }
                reads.addAndGet(n);
            }));
        }
        final Thread writer = new Thread(() -> {
            for (int i = 0; i < 20_000; i++) {
                lock.writeLock();
                try {
                    a++;
                    Thread.onSpinWait();
                    b++;
                    lock.writeLock(); // a write calling another
                    final int read = lock.readLock(); // and a read, inside the write
                    lock.readUnlock(read);
                    lock.writeUnlock();
                } finally {
                    lock.writeUnlock();
                }
            }
        });
        threads.forEach(Thread::start);
        writer.start();
        writer.join();
        stop.set(true);
        for (final Thread t : threads) {
            t.join();
        }
        assertEquals(20_000, a);
        assertEquals(a, b);
        assertEquals(0, torn.get(), "reads that saw half a write, of " + reads.get());
        assertTrue(reads.get() > 0);
    }

    @Test
    void shouldLetANestedReadInWhileAWriterWaitsForTheOuterOne() throws InterruptedException {
        final int outer = lock.readLock();
        final CountDownLatch writing = new CountDownLatch(1);
        final AtomicBoolean wrote = new AtomicBoolean();
        final Thread writer = new Thread(() -> {
            writing.countDown();
            lock.writeLock();
            wrote.set(true);
            lock.writeUnlock();
        });
        writer.start();
        writing.await();
        Thread.sleep(50); // the writer now waits for the outer read
        assertFalse(wrote.get(), "a writer waits for the readers inside");
        final int nested = lock.readLock(); // would deadlock if a waiting writer kept it out
        lock.readUnlock(nested);
        lock.readUnlock(outer);
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertTrue(wrote.get());
    }

    @Test
    void shouldRefuseATryReadWhileAWriteIsIn() throws InterruptedException {
        lock.writeLock();
        final AtomicBoolean got = new AtomicBoolean(true);
        final Thread agent = new Thread(() -> got.set(lock.tryReadLock()));
        agent.start();
        agent.join();
        assertFalse(got.get());
        lock.writeUnlock();
        assertTrue(lock.tryReadLock());
        lock.tryReadUnlock();
    }

    /** The safe points' write: never waits for a reader (perhaps its own thread) or inside this thread's own write. */
    @Test
    void shouldTryTheWriteOnlyWhenNoReadOrWriteIsInProgress() {
        final int token = lock.readLock();
        assertFalse(lock.tryWriteLock(), "this thread reads: it would wait for itself");
        lock.readUnlock(token);
        lock.writeLock();
        assertFalse(lock.tryWriteLock(), "inside this thread's own write");
        lock.writeUnlock();
        assertTrue(lock.tryWriteLock(), "nothing in progress");
        final int inside = lock.readLock(); // a read within the write: not counted
        lock.readUnlock(inside);
        lock.writeUnlock();
        final int after = lock.readLock(); // free again: a read gets in at once
        lock.readUnlock(after);
    }

    /**
     * A reader that slipped in under PENDING (a nested read through a stripe another reader held) and holds on, as a
     * read method in sync waiting for a child on the writer's own stack would: the try-write backs out instead of
     * waiting for it forever, and leaves the lock free.
     */
    @Test
    void shouldBackOutOfATryWriteWhenAReaderSlippedInUnderPendingHoldsOn() throws InterruptedException {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicBoolean slipIn = new AtomicBoolean(true);
        final List<Thread> readers = new ArrayList<>();
        final AtomicReference<ReplicaLock> under = new AtomicReference<>(); // the hook runs inside the lock it is given to
        final ReplicaLock slipped = new ReplicaLock(() -> {
            if (!slipIn.getAndSet(false)) {
                return;
            }
            final Thread reader = new Thread(() -> {
                final int token = under.get().enterReadUnchecked();
                entered.countDown();
                awaitQuietly(release);
                under.get().readUnlock(token);
            });
            readers.add(reader);
            reader.start();
            awaitQuietly(entered);
        });
        under.set(slipped);
        final boolean got = assertTimeoutPreemptively(Duration.ofSeconds(10), slipped::tryWriteLock,
            "a try-write waited for a reader that slipped in under PENDING");
        assertFalse(got, "the reader holds on: the write backs out");
        assertTrue(slipped.tryReadLock(), "backed out: the lock is free for readers again");
        slipped.tryReadUnlock();
        release.countDown();
        readers.get(0).join(TimeUnit.SECONDS.toMillis(10));
        assertTrue(slipped.tryWriteLock(), "the reader is gone: the write goes in");
        slipped.writeUnlock();
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
