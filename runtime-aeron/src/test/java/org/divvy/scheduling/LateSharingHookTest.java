package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.divvy.NodeConfig;
import org.divvy.Spawn;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workers read the shared-objects hook from their own copy, which the scheduler writes into every worker when the
 * hook is installed. The shared-data module installs it after the workers started (with the network half), so a
 * hook installed while workers already ran jobs and idled without one must be called at every later safe point:
 * a spawn, a sync, a job's end and an idle worker's back-off.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LateSharingHookTest {
    /** Counts the safe points of worker threads. */
    private static final class CountingHook implements SharingHook {
        final AtomicInteger safePoints = new AtomicInteger();

        @Override
        public void safePoint() {
            if (Thread.currentThread() instanceof Worker) {
                safePoints.incrementAndGet();
            }
        }

        @Override
        public void beforeRemoteJob(final Task job) {
        }
    }

    @Test
    void shouldCallASharingHookInstalledAfterTheWorkersStartedAtEverySafePoint() throws Exception {
        final Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "late-hook");
        scheduler.start();
        try {
            // the worker runs spawns, syncs and job ends, and idles, with no hook first, as a node's do before
            // its network half starts
            assertEquals(Long.valueOf(6765), scheduler.run(() -> new Fib(2).fib(20)).value());
            final CountingHook hook = new CountingHook();
            scheduler.sharingHook(hook);

            final int[] seen = scheduler.run(() -> {
                final int atStart = hook.safePoints.get();
                final Spawn<Integer> child = TaskJob.spawn("child", hook.safePoints::get);
                final int afterSpawn = hook.safePoints.get();
                Spawns.sync();
                final int afterSync = hook.safePoints.get();
                return new int[] {atStart, afterSpawn, child.get(), afterSync};
            }).value();
            // one worker: every safe point counted is this job's, its child's or their worker's between them
            assertTrue(seen[1] > seen[0], "a spawn is a safe point: " + seen[0] + " then " + seen[1]);
            assertTrue(seen[2] > seen[1], "a sync is a safe point (before it ran the child): " + seen[1] + " then " + seen[2]);
            assertTrue(seen[3] > seen[2], "the child's end is a safe point: " + seen[2] + " then " + seen[3]);

            final int afterRun = hook.safePoints.get();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (hook.safePoints.get() <= afterRun + 1 && deadlineNs - System.nanoTime() > 0) {
                Thread.sleep(1);
            }
            assertTrue(hook.safePoints.get() > afterRun + 1, "an idle worker passes safe points: " + afterRun + " then "
                + hook.safePoints.get());
        } finally {
            scheduler.close();
        }
    }
}
