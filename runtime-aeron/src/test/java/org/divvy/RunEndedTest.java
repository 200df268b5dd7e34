package org.divvy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.divvy.agent.NetworkAgent;
import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.transport.TestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/**
 * While a run is active its nodes know it (RUN_STARTED), also when they have nothing to steal and are in deep
 * idle, so their agents park only {@code deepIdleRunParkMs}; when it ends the master says so (RUN_ENDED) and
 * they are between runs again (the full deep-idle park). A master that leaves ends its runs on the others.
 * Checked through the nodes' state and counters, no timing assertions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunEndedTest {
    private static final long WAIT_STEP_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private static DivvyNode start(final MediaDriver driver, final String join) {
        return DivvyNode.start(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).join(join)
            .deepIdleAfterMs(100).build());
    }

    /** Parks in small steps until {@code condition} holds (bounded by the class timeout). */
    private static void await(final BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            LockSupport.parkNanos(WAIT_STEP_NS);
        }
    }

    /** A root that waits, doing nothing, until released: its peers have nothing to steal. */
    private static Thread idleRun(final DivvyNode master, final CountDownLatch started, final AtomicBoolean release) {
        final Thread run = new Thread(() -> master.run(() -> {
            started.countDown();
            while (!release.get()) {
                LockSupport.parkNanos(WAIT_STEP_NS);
            }
            return 0;
        }), "run-ended-test-root");
        run.start();
        return run;
    }

    @Test
    void peersShouldKnowARunIsActiveWhileTheyIdleInItAndBeBetweenRunsAfterRunEnded() throws Exception {
        try (MediaDriver driver = TestDriver.launch();
            DivvyNode master = start(driver, null);
            DivvyNode peer = start(driver, master.endpoint())) {
            master.awaitMembers(2, Duration.ofSeconds(15));
            peer.awaitMembers(2, Duration.ofSeconds(15));
            final NetworkAgent agent = peer.networkForTest().agent();
            await(() -> agent.deepIdleEntries() > 0);
            assertFalse(peer.networkForTest().isInRun(), "no run yet");
            assertFalse(master.networkForTest().isInRun(), "no run yet");

            final CountDownLatch started = new CountDownLatch(1);
            final AtomicBoolean release = new AtomicBoolean();
            final Thread run = idleRun(master, started, release);
            assertTrue(started.await(30, TimeUnit.SECONDS), "the root started");
            await(() -> peer.networkForTest().isInRun());
            assertTrue(master.networkForTest().isInRun(), "the master's own run");
            // nothing to steal: the peer goes into deep idle inside the run and still knows the run is active
            final long entries = agent.deepIdleEntries();
            await(() -> agent.deepIdleEntries() > entries);
            assertTrue(peer.networkForTest().isInRun(), "deep idle inside a run: still in the run");
            assertEquals(0, master.networkStatistics().messagesSent(LifecycleHandler.RUN_ENDED), "not ended yet");

            release.set(true);
            run.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(run.isAlive(), "the run returned");
            await(() -> !peer.networkForTest().isInRun());
            assertFalse(master.networkForTest().isInRun(), "the master's run ended");
            assertEquals(1, peer.networkForTest().traffic().messagesReceived(LifecycleHandler.RUN_ENDED), "one RUN_ENDED");
        }
    }

    @Test
    void aMasterThatLeavesDuringItsRunShouldEndTheRunOnItsPeers() throws Exception {
        try (MediaDriver driver = TestDriver.launch();
            DivvyNode registry = start(driver, null);
            DivvyNode master = start(driver, registry.endpoint());
            DivvyNode peer = start(driver, registry.endpoint())) {
            for (final DivvyNode node : new DivvyNode[] {registry, master, peer}) {
                node.awaitMembers(3, Duration.ofSeconds(15));
            }
            final CountDownLatch started = new CountDownLatch(1);
            final AtomicBoolean release = new AtomicBoolean();
            final Thread run = idleRun(master, started, release);
            assertTrue(started.await(30, TimeUnit.SECONDS), "the root started");
            await(() -> peer.networkForTest().isInRun() && registry.networkForTest().isInRun());

            master.networkForTest().close(); // leaves while its root still runs: no RUN_ENDED from it
            await(() -> !peer.networkForTest().isInRun() && !registry.networkForTest().isInRun());
            assertEquals(0, peer.networkForTest().traffic().messagesReceived(LifecycleHandler.RUN_ENDED),
                "ended by the departure, not by a RUN_ENDED");
            release.set(true);
            run.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
