package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.StealPolicy;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * Nodes left idle long enough to enter deep idle (a short threshold here) still wake when a run
 * starts: the idle node steals, the stolen jobs run and the answer is right. No timing assertions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DeepIdleWakeTest {
    private static DivvyNode start(final MediaDriver driver, final String join) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(join).policy(StealPolicy.RS)
            .deepIdleAfterMs(100).build());
    }

    @Test
    void nodesInDeepIdleShouldWakeStealAndComputeTheRightAnswer() {
        try (MediaDriver driver = TestDriver.launch();
            DivvyNode master = start(driver, null);
            DivvyNode thief = start(driver, master.endpoint())) {
            master.awaitMembers(2, Duration.ofSeconds(15));
            thief.awaitMembers(2, Duration.ofSeconds(15));
            // Quiet for many thresholds: both nodes are in deep idle, the thief's backoff at its deep cap.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1500));

            final RunResult<Long> result = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
            assertEquals(TestJobs.Fib.sequential(27), result.value());
            assertTrue(thief.networkStatistics().remoteSteals() > 0, "the deep-idle node woke and stole:\n" + result.statistics());
            assertTrue(thief.networkStatistics().remoteJobsRun() > 0, "stolen jobs ran and returned results");

            // Quiet again, then a second run: deep idle is entered and left more than once.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1500));
            final long stolenBefore = thief.networkStatistics().remoteSteals();
            final RunResult<Long> again = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
            assertEquals(TestJobs.Fib.sequential(27), again.value());
            assertTrue(thief.networkStatistics().remoteSteals() > stolenBefore, "woke again:\n" + again.statistics());
        }
    }
}
