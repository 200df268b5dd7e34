package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.divvy.NodeConfig;
import org.divvy.membership.MembershipMessages;
import org.divvy.node.NetworkNode;
import org.divvy.scheduling.Scheduler;
import org.divvy.stealing.StealReplyFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nodes' network halves on their own agent threads with their own embedded INVOKER drivers (the default set-up). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkServiceTest {
    private static void await(final String what, final long timeoutMs, final BooleanSupplier condition) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0, "timed out waiting for " + what);
            Thread.sleep(5);
        }
    }

    private static long networkThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("divvy-network")).count();
    }

    @Test
    void shouldJoinLeaveAndShutDownCleanlyWithoutThreadsOrDirectories() throws InterruptedException {
        final AtomicLong errors = new AtomicLong();
        final NodeConfig.Builder net = NodeConfig.builder().networked(true).workers(1).termLengthBytes(64 * 1024)
            .heartbeatIntervalMs(50);
        try (Scheduler firstScheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "first");
            Scheduler secondScheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "second")) {
            firstScheduler.start();
            secondScheduler.start();
            final NetworkNode first = NetworkNode.builder(net.site("a").build(), firstScheduler)
                .errorHandler(t -> errors.incrementAndGet()).build();
            first.start();
            final NetworkNode second = NetworkNode.builder(net.site("b").join(first.endpoint()).build(), secondScheduler)
                .errorHandler(t -> errors.incrementAndGet()).build();
            second.start();
            final String firstDir = first.aeronDirectoryName();
            final String secondDir = second.aeronDirectoryName();
            assertTrue(new File(firstDir).exists());
            assertTrue(new File(secondDir).exists());
            assertEquals(2, networkThreads());

            await("both joined", 10_000, () -> first.lifecycle().aliveMembers() == 2 && second.lifecycle().aliveMembers() == 2);
            // The idle second node asks the first for work through the running agents; the first answers "none".
            await("steal requests answered", 5000, () -> first.traffic().messagesReceived(StealRequestFlyweight.TYPE) > 0 &&
                second.traffic().messagesReceived(StealReplyFlyweight.TYPE) > 0);

            second.close();
            await("the first node's registry got the LEAVE", 5000, () -> first.traffic().messagesReceived(MembershipMessages.LEAVE) == 1);
            await("the first node sees the second gone", 5000, () -> first.lifecycle().aliveMembers() == 1);
            assertFalse(second.isRunning());
            assertFalse(new File(secondDir).exists(), secondDir);
            first.close();
            assertFalse(first.isRunning());
            assertFalse(new File(firstDir).exists(), firstDir);
            await("agent threads gone", 5000, () -> networkThreads() == 0);
            assertEquals(0, errors.get());
        }
    }
}
