package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class WorkStealingDequeTest {
    /** A job that is only an id: the deque never runs jobs. */
    static final class IdJob extends Task {
        final int id;

        IdJob(final int id) {
            this.id = id;
        }

        @Override
        protected void compute() {
        }

        @Override
        protected void runResultCallback() {
        }

        @Override
        protected String spawnableName() {
            return "test.Ids#id";
        }
    }

    @Test
    @Timeout(5)
    void shouldPopNewestAndPollOldest() {
        final WorkStealingDeque deque = new WorkStealingDeque();
        final IdJob[] jobs = new IdJob[1000]; // more than the initial capacity: grows
        for (int i = 0; i < jobs.length; i++) {
            jobs[i] = new IdJob(i);
            deque.push(jobs[i]);
        }
        assertEquals(1000, deque.size());
        assertSame(jobs[999], deque.pop());
        assertSame(jobs[0], deque.poll());
        assertSame(jobs[1], deque.poll());
        assertSame(jobs[998], deque.pop());
        for (int i = 2; i < 998; i++) {
            assertSame(jobs[i], deque.poll());
        }
        assertTrue(deque.isEmpty());
        assertNull(deque.pop());
        assertNull(deque.poll());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldTakeEveryJobExactlyOnceWithOneOwnerAndManyThieves() throws Exception {
        final int jobCount = 2_000_000;
        final int thiefCount = 3;
        final WorkStealingDeque deque = new WorkStealingDeque();
        final AtomicIntegerArray taken = new AtomicIntegerArray(jobCount);
        final AtomicBoolean ownerDone = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> thieves = new ArrayList<>();
        final long[] stolen = new long[thiefCount];
        for (int t = 0; t < thiefCount; t++) {
            final int thief = t;
            final Thread thread = new Thread(() -> {
                try {
                    int misses = 0;
                    while (!ownerDone.get() || !deque.isEmpty()) {
                        final Task job = deque.poll();
                        if (job != null) {
                            taken.incrementAndGet(((IdJob)job).id);
                            stolen[thief]++;
                            misses = 0;
                        } else if (++misses > 64) {
                            Thread.yield(); // no busy spinning on a shared 2-core machine
                        }
                    }
                } catch (final Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "thief-" + t);
            thieves.add(thread);
            thread.start();
        }
        // The owner pushes bursts of varying size (some beyond the capacity, forcing growth while
        // thieves poll) and pops part of each burst, like spawn/sync.
        long popped = 0;
        int next = 0;
        int burst = 1;
        while (next < jobCount) {
            final int n = Math.min(burst, jobCount - next);
            for (int i = 0; i < n; i++) {
                deque.push(new IdJob(next++));
            }
            for (int i = 0; i < n / 2; i++) {
                final Task job = deque.pop();
                if (job == null) {
                    break;
                }
                taken.incrementAndGet(((IdJob)job).id);
                popped++;
            }
            burst = burst >= 2048 ? 1 : burst * 3 + 1;
        }
        for (Task job; (job = deque.pop()) != null; ) {
            taken.incrementAndGet(((IdJob)job).id);
            popped++;
        }
        ownerDone.set(true);
        for (final Thread thread : thieves) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        long total = popped;
        for (final long s : stolen) {
            total += s;
        }
        for (int i = 0; i < jobCount; i++) {
            if (taken.get(i) != 1) {
                throw new AssertionError("job " + i + " taken " + taken.get(i) + " times");
            }
        }
        assertEquals(jobCount, total);
        assertTrue(total - popped > 0, "thieves stole something");
    }
}
