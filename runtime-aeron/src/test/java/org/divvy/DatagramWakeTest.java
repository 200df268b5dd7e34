package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.agent.NetworkAgent;
import org.divvy.stealing.TestJobs;
import org.divvy.transport.DatagramWait;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node on its own embedded driver (as `divvy node` runs) whose deep-idle park is 60 s still answers a run at once:
 * the run's first frame to it ends the park. Without that, the idle thief would sleep through the whole run (about
 * 2.6 s of 1 ms leaves on the master's one worker) and steal nothing; the park is far longer than the run so the
 * check does not depend on the machine's speed.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DatagramWakeTest {
    private static final long LONG_PARK_MS = 60_000;

    /** Own embedded driver (no aeronDirectory); the master with the default park, so the check is on the thief alone. */
    private static DivvyNode startMaster() {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true).termLengthBytes(64 * 1024)
            .policy(StealPolicy.RS).acceptableHeartbeatPauseMs(4 * LONG_PARK_MS).build());
    }

    /** The thief: heartbeats as rare as its park, which they would otherwise cap. */
    private static DivvyNode startThief(final String join) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true).termLengthBytes(64 * 1024).join(join)
            .policy(StealPolicy.RS).deepIdleAfterMs(100).deepIdleParkMs(LONG_PARK_MS).heartbeatIntervalMs(LONG_PARK_MS)
            .acceptableHeartbeatPauseMs(4 * LONG_PARK_MS).build());
    }

    @Test
    void aDeepIdleNodeParkedForAMinuteShouldWakeForARunAndSteal() {
        try (DivvyNode master = startMaster(); DivvyNode thief = startThief(master.endpoint())) {
            master.awaitMembers(2, Duration.ofSeconds(15));
            thief.awaitMembers(2, Duration.ofSeconds(15));
            final NetworkAgent agent = thief.networkForTest().agent();
            while (agent.deepIdleEntries() == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // bounded by the class timeout
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500)); // the thief is in its minute-long park
            final DatagramWait wait = thief.networkForTest().datagramWait();
            assertNotNull(wait, "a node on its own embedded driver waits on its socket");
            final long wakesBefore = wait.datagramWakes();

            final RunResult<Long> result = master.run(() -> new TestJobs.Fib(12, 1000).fib(27));
            assertEquals(TestJobs.Fib.sequential(27), result.value());
            assertTrue(thief.networkStatistics().remoteSteals() > 0,
                "the thief's park ended on the run's first frame and it stole:\n" + result.statistics());
            assertTrue(wait.datagramWakes() > wakesBefore, "a datagram ended the park");
        }
    }
}
