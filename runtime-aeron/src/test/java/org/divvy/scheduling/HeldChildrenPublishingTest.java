package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.divvy.NodeConfig;
import org.divvy.Spawn;
import org.divvy.codegen.Spawns;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Held-back children of frames deeper down a worker's stack than the one running now: once the deque no longer
 * offers the surplus, they are published oldest frame first, at a spawn and in a sync about to wait, so thieves
 * get the largest jobs and a worker waiting for a stolen child does not park beside them. One worker, so the
 * schedule is fixed; the jobs themselves play the remote thief through {@link Scheduler#pollForRemoteThief}, and
 * {@link RemoteThief} ends what they hand it on another thread, as a peer's result would.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HeldChildrenPublishingTest {
    private final Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "held");
    private final RemoteThief thief = new RemoteThief();

    @AfterEach
    void close() {
        thief.close();
        scheduler.close();
    }

    @Test
    void shouldGiveAThiefAnOlderFramesHeldBackChildBeforeTheJobsOfTheFrameRunningNow() {
        scheduler.start();
        final String report = scheduler.run(() -> {
            final List<Spawn<Integer>> queued = spawnAll("queued", Worker.STEALABLE_SURPLUS);
            final List<Spawn<Integer>> held = spawnAll("held", 4);
            final Spawn<String> last = TaskJob.spawn("last", () -> {
                // deep inside the frame's last child, the only worker's deque holds the three queued jobs: a thief
                // takes them, then the last child spawns
                giveToThief(queued.size());
                awaitDone(queued);
                final Spawn<Integer> deeper = TaskJob.spawn("deeper", () -> 1);
                final Task taken = scheduler.pollForRemoteThief(0);
                if (taken != null) {
                    thief.take(taken, () -> true);
                }
                Spawns.sync();
                return (taken == null ? "nothing" : taken.displayName()) + " " + deeper.get();
            });
            final boolean premise = queued.stream().allMatch(c -> status(c) == Task.NEW) &&
                held.stream().allMatch(c -> status(c) == Task.UNPUBLISHED) && status(last) == Task.UNPUBLISHED;
            Spawns.sync();
            return premise + " " + last.get() + " " + sum(queued) + " " + sum(held);
        }).value();
        assertEquals("true held3 1 3 4", report,
            "the thief got a held-back child of the root's frame (the oldest: pushed first), not the last child's own job");
    }

    @Test
    void shouldNotParkInASyncWhileAnOlderFrameHoldsBackChildren() {
        scheduler.start();
        final String report = scheduler.run(() -> {
            final List<Spawn<Integer>> queued = spawnAll("queued", Worker.STEALABLE_SURPLUS);
            final List<Spawn<Integer>> held = spawnAll("held", 4);
            final Spawn<String> middle = TaskJob.spawn("middle", () -> {
                final List<Spawn<Integer>> middleHeld = spawnAll("middleHeld", 3);
                final Spawn<String> deepest = TaskJob.spawn("deepest", () -> {
                    giveToThief(queued.size());
                    awaitDone(queued);
                    // the spawn publishes the root frame's held children (enough for the surplus); the middle
                    // frame's stay held back
                    final Spawn<Integer> out = TaskJob.spawn("out", () -> 1);
                    final boolean middleStillHeld = middleHeld.stream().allMatch(c -> status(c) == Task.UNPUBLISHED);
                    // a thief takes everything queued, the out job last, and ends that only once the middle frame's
                    // held-back children have run: this worker must run them while it waits in sync, not park
                    Task taken;
                    while ((taken = scheduler.pollForRemoteThief(0)) != null) {
                        if (taken == (Object)out) {
                            thief.take(taken, () -> middleHeld.stream().allMatch(c -> ((Task)c).isDone()));
                            break;
                        }
                        thief.take(taken, () -> true);
                    }
                    Spawns.sync();
                    return middleStillHeld + " " + (taken == (Object)out) + " " + out.get();
                });
                Spawns.sync();
                return deepest.get() + " " + sum(middleHeld);
            });
            Spawns.sync();
            return middle.get() + " " + sum(queued) + " " + sum(held);
        }).value();
        assertEquals("true true 1 3 3 4", report, "the worker waiting for the out job ran the middle frame's held "
            + "children (else the thief gave up on them after " + RemoteThief.PATIENCE_S + " s)");
        assertEquals(List.of(), thief.complaints);
    }

    private void giveToThief(final int jobs) {
        for (int i = 0; i < jobs; i++) {
            thief.take(scheduler.pollForRemoteThief(0), () -> true);
        }
    }

    private static List<Spawn<Integer>> spawnAll(final String name, final int count) {
        final List<Spawn<Integer>> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(TaskJob.spawn(name + i, () -> 1));
        }
        return jobs;
    }

    private static int sum(final List<Spawn<Integer>> jobs) {
        int sum = 0;
        for (final Spawn<Integer> job : jobs) {
            sum += job.get();
        }
        return sum;
    }

    private static int status(final Object handle) {
        return ((Task)handle).status;
    }

    /** Waits (1 ms steps, 20 s at most) until every job has ended. */
    private static void awaitDone(final List<? extends Spawn<?>> jobs) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!jobs.stream().allMatch(j -> ((Task)j).isDone())) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError("the thief never ended the jobs it took");
            }
            Thread.sleep(1);
        }
    }

    /**
     * The owner's side of a remote thief: claims each job given to it and, on its own thread, computes it (test
     * jobs are leaves) and completes it once {@code when} holds, as a peer's result would. A job whose condition
     * never holds is completed anyway after {@link #PATIENCE_S} seconds, with a complaint, so the run ends.
     */
    private static final class RemoteThief implements AutoCloseable {
        static final int PATIENCE_S = 10;
        final List<String> complaints = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final ExecutorService thread = Executors.newSingleThreadExecutor();

        void take(final Task job, final BooleanSupplier when) {
            final RemoteLink link = new RemoteLink(job) {
            };
            if (!link.claim()) {
                throw new AssertionError("`" + job.displayName() + "` was cancelled before the thief claimed it");
            }
            thread.execute(() -> {
                final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
                while (!when.getAsBoolean()) {
                    if (System.nanoTime() - deadlineNs > 0) {
                        complaints.add("`" + job.displayName() + "` waited " + PATIENCE_S + " s in vain");
                        break;
                    }
                    Thread.onSpinWait();
                }
                Throwable failure = null;
                try {
                    job.compute();
                } catch (final Throwable t) {
                    failure = t;
                }
                link.complete(failure);
            });
        }

        @Override
        public void close() {
            thread.shutdownNow();
        }
    }
}
