package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.agent.NetworkAgent;
import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.stealing.TestJobs;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * A run on a master announces itself with RUN_STARTED: peers in deep idle receive it, which wakes them
 * (and resets their steal backoff), and they steal from the run. Checked through counters only, no
 * timing assertions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunStartedWakeTest {
    private static final long WAIT_STEP_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private static DivvyNode start(final MediaDriver driver, final String join) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(join).policy(StealPolicy.RS)
            .deepIdleAfterMs(100).build());
    }

    /** Parks in small steps until {@code node}'s agent entered deep idle more than {@code entriesBefore} times. */
    private static void awaitDeepIdle(final DivvyNode node, final long entriesBefore) {
        final NetworkAgent agent = node.networkForTest().agent();
        while (agent.deepIdleEntries() <= entriesBefore) {
            LockSupport.parkNanos(WAIT_STEP_NS); // bounded by the class timeout
        }
    }

    /** Parks in small steps until {@code counter} reads {@code expected} (frames are counted on the agent threads). */
    private static void awaitCount(final long expected, final java.util.function.LongSupplier counter, final String what) {
        while (counter.getAsLong() < expected) {
            LockSupport.parkNanos(WAIT_STEP_NS); // bounded by the class timeout
        }
        assertEquals(expected, counter.getAsLong(), what);
    }

    @Test
    void runShouldBroadcastRunStartedAndWakeDeepIdlePeersWhichThenSteal() {
        try (MediaDriver driver = TestDriver.launch();
            DivvyNode master = start(driver, null);
            DivvyNode first = start(driver, master.endpoint());
            DivvyNode second = start(driver, master.endpoint())) {
            master.awaitMembers(3, Duration.ofSeconds(15));
            first.awaitMembers(3, Duration.ofSeconds(15));
            second.awaitMembers(3, Duration.ofSeconds(15));
            awaitDeepIdle(first, 0);
            awaitDeepIdle(second, 0);
            assertEquals(0, master.networkStatistics().messagesSent(LifecycleHandler.RUN_STARTED), "no run yet");
            assertEquals(0, first.networkForTest().runStartsReceived());

            final RunResult<Long> result = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
            assertEquals(TestJobs.Fib.sequential(27), result.value());
            // one broadcast: one frame to each of the two peers
            awaitCount(2, () -> master.networkStatistics().messagesSent(LifecycleHandler.RUN_STARTED), "RUN_STARTED frames sent");
            for (final DivvyNode peer : new DivvyNode[] {first, second}) {
                awaitCount(1, () -> peer.networkForTest().traffic().messagesReceived(LifecycleHandler.RUN_STARTED),
                    "RUN_STARTED frames received");
                awaitCount(1, () -> peer.networkForTest().runStartsReceived(), "RUN_STARTED seen by the listener");
                assertEquals(0, peer.networkStatistics().messagesSent(LifecycleHandler.RUN_STARTED), "only the master announces");
            }
            assertTrue(first.networkStatistics().remoteSteals() + second.networkStatistics().remoteSteals() > 0,
                "the woken peers stole:\n" + result.statistics());

            // Deep idle again, second run: announced and received again.
            final long firstEntries = first.networkForTest().agent().deepIdleEntries();
            awaitDeepIdle(first, firstEntries);
            final RunResult<Long> again = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
            assertEquals(TestJobs.Fib.sequential(27), again.value());
            awaitCount(4, () -> master.networkStatistics().messagesSent(LifecycleHandler.RUN_STARTED), "RUN_STARTED frames sent");
            awaitCount(2, () -> first.networkForTest().runStartsReceived(), "second RUN_STARTED seen");
            awaitCount(2, () -> second.networkForTest().runStartsReceived(), "second RUN_STARTED seen");
        }
    }
}
