package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.divvy.NodeConfig;
import org.divvy.membership.MembershipMessages;
import org.divvy.node.NetworkNode;
import org.divvy.scheduling.Scheduler;
import org.divvy.stealing.StealReplyFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nodes' network halves on their own agent threads with their own embedded INVOKER drivers (the default set-up). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetworkServiceTest {
    private static long networkThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("divvy-network")).count();
    }

    @Test
    void shouldJoinLeaveAndShutDownCleanlyWithoutThreadsOrDirectories() {
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

            Await.within(Duration.ofSeconds(10)).until(() -> first.lifecycle().aliveMembers() == 2 &&
                second.lifecycle().aliveMembers() == 2, "both joined");
            // In a run with nothing in it, the idle second node asks the first for work through the running agents;
            // the first answers "none".
            first.announceRun();
            Await.within(Duration.ofSeconds(5)).until(() -> first.traffic().messagesReceived(StealRequestFlyweight.TYPE) > 0 &&
                second.traffic().messagesReceived(StealReplyFlyweight.TYPE) > 0, "steal requests answered");

            second.close();
            Await.within(Duration.ofSeconds(5)).until(() -> first.traffic().messagesReceived(MembershipMessages.LEAVE) == 1,
                "the first node's registry got the LEAVE");
            Await.within(Duration.ofSeconds(5)).until(() -> first.lifecycle().aliveMembers() == 1, "the first node sees the second gone");
            assertFalse(second.isRunning());
            assertFalse(new File(secondDir).exists(), secondDir);
            first.close();
            assertFalse(first.isRunning());
            assertFalse(new File(firstDir).exists(), firstDir);
            Await.within(Duration.ofSeconds(5)).until(() -> networkThreads() == 0, "agent threads gone");
            assertEquals(0, errors.get());
        }
    }
}
