package org.divvy.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.agent.CodecThread;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.Members;
import org.divvy.scheduling.RecoveryHook;
import org.divvy.scheduling.RemoteLink;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.divvy.scheduling.Task;
import org.divvy.testing.NumberJob;
import org.divvy.testing.RecordingFrameSender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thief keeps the results it returned to an owner, so that when the owner dies they become finished orphans and
 * the owner's restarted work reuses them, however long ago they were returned. Found by perf's faults section: a
 * site killed at half the run took with it the work the survivors had done for it and returned before the failure
 * detector's window (the only results kept before), and the run ended no sooner than on 3 sites from the start.
 */
class SentResultsKeptTest {
    private static final int SELF = 2;
    private static final int OWNER = 1;

    private final Members members = new Members("A");
    private final RecordingFrameSender sender = new RecordingFrameSender();
    private final List<Task> keptAsOrphans = new ArrayList<>();
    private Scheduler scheduler;
    private CodecThread codec;

    @BeforeEach
    void start() {
        scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "sent-results-kept");
        scheduler.recoveryHook(new RecoveryHook() {
            @Override
            public boolean fetchFromHolder(final Task job) {
                return false;
            }

            @Override
            public boolean copyHeldResult(final Task job) {
                return false;
            }

            @Override
            public void onFinishedOrphan(final Task job, final RemoteLink orphan) {
                synchronized (keptAsOrphans) {
                    keptAsOrphans.add(job);
                }
            }
        });
        scheduler.start();
        codec = new CodecThread("sent-results-kept-codec", Throwable::printStackTrace);
        members.selfId(SELF);
        for (final int id : new int[] {OWNER, SELF}) {
            members.update(new Member(id, "A", "127.0.0.1:" + (40_000 + id), MemberState.ALIVE));
        }
    }

    @AfterEach
    void stop() {
        codec.close();
        scheduler.close();
    }

    @Test
    @Timeout(20)
    void shouldKeepAResultReturnedLongBeforeItsOwnerDiedAsAnOrphan() throws Exception {
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, Long.MAX_VALUE, 4);
        final long sentAt = runAndReturn(foreign, 1);
        foreign.doWork(sentAt + TimeUnit.MINUTES.toNanos(10)); // long after any failure detector's window
        ownerDies(foreign);
        assertEquals(List.of(1L), keptValues(), "the result returned ten minutes before the owner died is an orphan now");
    }

    @Test
    @Timeout(20)
    void shouldKeepOnlyTheNewestReturnedResultsBeyondItsBound() throws Exception {
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, Long.MAX_VALUE, 2);
        for (int n = 1; n <= 3; n++) {
            runAndReturn(foreign, n);
        }
        ownerDies(foreign);
        assertEquals(List.of(2L, 3L), keptValues(), "the oldest was dropped to stay within the bound of 2");
    }

    @Test
    @Timeout(20)
    void shouldKeepNothingReturnedWhenTheBoundIsZero() throws Exception {
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, Long.MAX_VALUE, 0);
        runAndReturn(foreign, 1);
        ownerDies(foreign);
        assertEquals(List.of(), keptValues(), "orphan saving off keeps nothing");
    }

    /**
     * A job that came with large arguments (decoded off the agent thread) would hold them for the whole run: its result
     * is not kept after sending, and recomputing it is the price.
     */
    @Test
    @Timeout(20)
    void shouldNotKeepAReturnedResultWhoseJobCameWithLargeArguments() throws Exception {
        final ForeignJobs foreign = new ForeignJobs(scheduler, members, sender, codec, Long.MAX_VALUE, 4);
        runAndReturn(foreign, 1, ForeignJobs.LARGE_ARGUMENTS);
        runAndReturn(foreign, 2, CodecThread.INLINE_BYTES);
        ownerDies(foreign);
        assertEquals(List.of(2L), keptValues(), "only the job with small arguments is kept");
    }

    /** Adopts a job stolen from the owner that returns {@code n}, and runs the duty until its result went out. */
    private long runAndReturn(final ForeignJobs foreign, final long n) throws InterruptedException {
        return runAndReturn(foreign, n, 4);
    }

    private long runAndReturn(final ForeignJobs foreign, final long n, final int argumentsBytes) throws InterruptedException {
        final int sentBefore = sender.sent.size();
        foreign.adopt(new NumberJob(n), Stamp.ROOT, false, OWNER, n, argumentsBytes, false);
        long now = System.nanoTime();
        while (sender.sent.size() == sentBefore) {
            foreign.doWork(now = System.nanoTime());
            Thread.sleep(1);
        }
        return now;
    }

    private void ownerDies(final ForeignJobs foreign) {
        final Member dead = new Member(OWNER, "A", "127.0.0.1:" + (40_000 + OWNER), MemberState.DEAD);
        members.update(dead);
        foreign.onMemberChanged(dead);
    }

    private List<Long> keptValues() {
        synchronized (keptAsOrphans) {
            final List<Long> values = new ArrayList<>();
            for (final Task job : keptAsOrphans) {
                values.add((Long)((NumberJob)job).boxedResult());
            }
            return values;
        }
    }
}
