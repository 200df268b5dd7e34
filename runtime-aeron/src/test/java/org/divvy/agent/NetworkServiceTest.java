package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.divvy.membership.MemberState;
import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nodes on their own agent threads with their own embedded INVOKER drivers (the default set-up). */
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
        final MembershipSettings.Builder membership = MembershipSettings.builder()
            .heartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(50)).heartbeatTimeoutNs(TimeUnit.SECONDS.toNanos(1));
        final RecordingListener firstListener = new RecordingListener();
        final NetworkService first = NetworkService.start(TransportSettings.builder().termLengthBytes(64 * 1024).build(),
            membership.site("a").build(), NetworkService.DEFAULT_COMMAND_RING_BYTES, firstListener, t -> errors.incrementAndGet());
        final RecordingListener secondListener = new RecordingListener();
        final NetworkService second = NetworkService.start(TransportSettings.builder().termLengthBytes(64 * 1024).build(),
            membership.site("b").joinEndpoint(first.agent().endpoint()).build(), NetworkService.DEFAULT_COMMAND_RING_BYTES,
            secondListener, t -> errors.incrementAndGet());
        final String firstDir = first.agent().aeronDirectoryName();
        final String secondDir = second.agent().aeronDirectoryName();
        assertTrue(new File(firstDir).exists());
        assertTrue(new File(secondDir).exists());
        assertEquals(2, networkThreads());

        await("both joined", 10_000, () -> firstListener.has("member 1 b ALIVE") && secondListener.has("member 0 a ALIVE"));
        final NetworkProxy proxy = second.newProxy();
        assertTrue(proxy.requestSteal(0, 7, false));
        await("steal request through the running agents", 5000, () -> firstListener.has("stealRequest 1 7 false"));

        second.close();
        await("the first node sees the second LEFT", 5000, () -> firstListener.has("member 1 b " + MemberState.LEFT));
        assertFalse(second.isRunning());
        assertFalse(new File(secondDir).exists(), secondDir);
        first.close();
        assertFalse(first.isRunning());
        assertFalse(new File(firstDir).exists(), firstDir);
        await("agent threads gone", 5000, () -> networkThreads() == 0);
        assertEquals(0, errors.get());
    }
}
