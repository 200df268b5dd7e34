package org.divvy.perf.wan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The relay over real UDP on loopback. Timing is asserted as lower bounds and order only. */
@Timeout(30)
class WanRelayTest {
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final long MS = 1_000_000;

    private DatagramChannel client;
    private DatagramChannel target;

    @BeforeEach
    void openSockets() throws IOException {
        client = open();
        target = open();
    }

    @AfterEach
    void closeSockets() throws IOException {
        client.close();
        target.close();
    }

    @Test
    void shouldDeliverInOrderNoEarlierThanDelayMinusJitter() throws IOException {
        final WanLinkConfig config = WanLinkConfig.builder()
            .oneWayDelay(40, TimeUnit.MILLISECONDS).jitter(15, TimeUnit.MILLISECONDS).seed(3).build();
        try (WanRelay relay = WanRelay.start(List.of(link(config)))) {
            final int count = 30;
            final long[] sentNs = new long[count];
            for (int i = 0; i < count; i++) {
                sentNs[i] = System.nanoTime();
                client.send(ByteBuffer.allocate(4).putInt(0, i), relay.listenAddress("a-b"));
            }
            final ByteBuffer buffer = ByteBuffer.allocate(64);
            for (int i = 0; i < count; i++) {
                buffer.clear();
                final SocketAddress from = target.receive(buffer);
                final long receivedNs = System.nanoTime();
                assertEquals(relay.upstreamAddress("a-b"), from, "the target sees the relay's upstream socket");
                assertEquals(i, buffer.getInt(0), "datagrams must keep their order");
                assertTrue(receivedNs - sentNs[i] >= 25 * MS,
                    "datagram " + i + " arrived after " + (receivedNs - sentNs[i]) / 1e6 + " ms, before delay - jitter = 25 ms");
            }
            awaitCount(count, () -> relay.forwardCounters("a-b").delivered());
        }
    }

    @Test
    void shouldRelayRepliesBackToTheClientWithTheReverseDelay() throws IOException {
        final WanLinkSpec spec = new WanLinkSpec("a-b", ANY_LOOPBACK_PORT, localAddress(target),
            WanLinkConfig.builder().oneWayDelay(10, TimeUnit.MILLISECONDS).build(),
            WanLinkConfig.builder().oneWayDelay(30, TimeUnit.MILLISECONDS).build());
        try (WanRelay relay = WanRelay.start(List.of(spec))) {
            final long startNs = System.nanoTime();
            client.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), relay.listenAddress("a-b"));
            final ByteBuffer buffer = ByteBuffer.allocate(64);
            final SocketAddress relaySide = target.receive(buffer);
            buffer.flip();
            target.send(buffer, relaySide);
            final ByteBuffer reply = ByteBuffer.allocate(64);
            final SocketAddress from = client.receive(reply);
            final long roundTripNs = System.nanoTime() - startNs;
            assertEquals(relay.listenAddress("a-b"), from, "the reply comes from the address the client sent to");
            reply.flip();
            final byte[] bytes = new byte[reply.remaining()];
            reply.get(bytes);
            assertArrayEquals(new byte[] {1, 2, 3}, bytes);
            assertTrue(roundTripNs >= 40 * MS, "round trip " + roundTripNs / 1e6 + " ms, below 10 + 30 ms");
            awaitCount(1, () -> relay.reverseCounters("a-b").delivered());
        }
    }

    @Test
    void shouldDelayDeliveryUnderABandwidthCap() throws IOException {
        // 10 datagrams of 1000 bytes at 20 000 B/s with a 1000-byte bucket: the last leaves 450 ms after the first.
        final WanLinkConfig config = WanLinkConfig.builder().bandwidthBytesPerSecond(20_000).burstBytes(1_000).build();
        try (WanRelay relay = WanRelay.start(List.of(link(config)))) {
            final long startNs = System.nanoTime();
            for (int i = 0; i < 10; i++) {
                client.send(ByteBuffer.allocate(1_000).putInt(0, i), relay.listenAddress("a-b"));
            }
            final ByteBuffer buffer = ByteBuffer.allocate(2_000);
            for (int i = 0; i < 10; i++) {
                buffer.clear();
                target.receive(buffer);
                assertEquals(i, buffer.getInt(0));
            }
            final long elapsedNs = System.nanoTime() - startNs;
            assertTrue(elapsedNs >= 440 * MS, "10 x 1000 B at 20 000 B/s took " + elapsedNs / 1e6 + " ms, below 450 ms");
            awaitCount(10_000, () -> relay.forwardCounters("a-b").deliveredBytes());
        }
    }

    @Test
    void shouldLoseAboutTheConfiguredFraction() throws IOException {
        final WanLinkConfig config = WanLinkConfig.builder().lossRate(0.25).seed(99).build();
        try (WanRelay relay = WanRelay.start(List.of(link(config)))) {
            final WanLinkCounters counters = relay.forwardCounters("a-b");
            final int count = 4_000;
            final int batch = 100;
            target.configureBlocking(false);
            final ByteBuffer buffer = ByteBuffer.allocate(64);
            long arrived = 0;
            // Sent in batches, each waited for and drained, so no socket buffer overflows even where
            // the kernel caps buffers at a few hundred kilobytes: every loss is the relay's.
            for (int sent = 0; sent < count; sent += batch) {
                for (int i = sent; i < sent + batch; i++) {
                    client.send(ByteBuffer.allocate(32).putInt(0, i), relay.listenAddress("a-b"));
                }
                final long expectedReceived = sent + batch;
                final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while ((counters.received() < expectedReceived || arrived < counters.delivered())
                    && System.nanoTime() - deadlineNs < 0) {
                    buffer.clear();
                    if (target.receive(buffer) != null) {
                        arrived++;
                    } else {
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                    }
                }
                assertEquals(expectedReceived, counters.received(), "the relay must see every datagram on loopback");
            }
            final double lossRate = counters.lost() / (double)count;
            assertTrue(lossRate > 0.20 && lossRate < 0.30, "loss rate " + lossRate + ", configured 0.25");
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (arrived < count - counters.lost() && System.nanoTime() - deadlineNs < 0) {
                buffer.clear();
                if (target.receive(buffer) != null) {
                    arrived++;
                } else {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                }
            }
            assertEquals(count - counters.lost(), arrived, "every datagram not lost arrives");
        }
    }

    @Test
    void shouldUseAlmostNoCpuWhenIdle() throws InterruptedException, IOException {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (WanRelay relay = WanRelay.start(List.of(link(WanLinkConfig.perfect())))) {
            client.send(ByteBuffer.allocate(8), relay.listenAddress("a-b"));
            target.receive(ByteBuffer.allocate(64));
            final Thread relayThread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("wan-relay")).findFirst().orElseThrow();
            final long cpuBeforeNs = threads.getThreadCpuTime(relayThread.getId());
            TimeUnit.MILLISECONDS.sleep(500);
            final long cpuNs = threads.getThreadCpuTime(relayThread.getId()) - cpuBeforeNs;
            assertTrue(cpuNs < 100 * MS, "idle relay thread used " + cpuNs / 1e6 + " ms of CPU in 500 ms: it spins");
        }
    }

    @Test
    void shouldNotSpinWhileADatagramWaitsForItsReleaseTime() throws InterruptedException, IOException {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final WanLinkConfig slow = WanLinkConfig.builder().oneWayDelay(2, TimeUnit.SECONDS).build();
        try (WanRelay relay = WanRelay.start(List.of(link(slow)))) {
            client.send(ByteBuffer.allocate(8), relay.listenAddress("a-b"));
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (relay.forwardCounters("a-b").received() == 0 && System.nanoTime() - deadlineNs < 0) {
                TimeUnit.MILLISECONDS.sleep(1);
            }
            final Thread relayThread = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("wan-relay")).findFirst().orElseThrow();
            final long cpuBeforeNs = threads.getThreadCpuTime(relayThread.getId());
            TimeUnit.MILLISECONDS.sleep(500);
            final long cpuNs = threads.getThreadCpuTime(relayThread.getId()) - cpuBeforeNs;
            assertTrue(cpuNs < 100 * MS, "waiting relay thread used " + cpuNs / 1e6 + " ms of CPU in 500 ms: it spins");
            assertEquals(0, relay.forwardCounters("a-b").delivered(), "released before its 2 s delay");
        }
    }

    /** The relay counts a datagram just after sending it, so a receiver may see it before the counter moves. */
    private static void awaitCount(final long expected, final LongSupplier counter) {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (counter.getAsLong() != expected && System.nanoTime() - deadlineNs < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertEquals(expected, counter.getAsLong());
    }

    private WanLinkSpec link(final WanLinkConfig config) throws IOException {
        return WanLinkSpec.symmetric("a-b", ANY_LOOPBACK_PORT, localAddress(target), config);
    }

    private static InetSocketAddress localAddress(final DatagramChannel channel) throws IOException {
        return (InetSocketAddress)channel.getLocalAddress();
    }

    private static DatagramChannel open() throws IOException {
        final DatagramChannel channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 * 1024 * 1024);
        channel.bind(ANY_LOOPBACK_PORT);
        return channel;
    }
}
