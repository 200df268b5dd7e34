package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's deep-idle wait over a real UDP socket on the loopback: a datagram, a wake from another thread and a
 * wake that came before the wait each end a wait set far longer than the test's deadline, so a wait that ran its
 * course fails the test by its timeout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DatagramWaitTest {
    private static final long LONG_WAIT_NS = TimeUnit.MINUTES.toNanos(10);

    @Test
    void aDatagramEndsTheWait() throws Exception {
        final List<Throwable> errors = new ArrayList<>();
        try (DatagramChannel socket = openBound(); DatagramChannel sender = DatagramChannel.open();
            DatagramWait wait = DatagramWait.open(errors::add)) {
            wait.register(socket);
            final CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                sleepMs(200); // the waiter is (very likely) in its select by then; if not, the datagram waits readable
                send(sender, socket);
            });
            wait.await(LONG_WAIT_NS);
            sent.get(10, TimeUnit.SECONDS);
            assertEquals(1, wait.datagramWakes(), "the wait ended because the socket became readable");
            assertTrue(errors.isEmpty(), errors.toString());
        }
    }

    @Test
    void aDatagramAlreadyWaitingEndsTheWaitAtOnceAndAReadOneDoesNot() throws Exception {
        final List<Throwable> errors = new ArrayList<>();
        try (DatagramChannel socket = openBound(); DatagramChannel sender = DatagramChannel.open();
            DatagramWait wait = DatagramWait.open(errors::add)) {
            wait.register(socket);
            send(sender, socket);
            wait.await(LONG_WAIT_NS); // readable before the wait: returns at once
            assertEquals(1, wait.datagramWakes());
            final ByteBuffer in = ByteBuffer.allocate(64);
            assertTrue(socket.receive(in) != null, "the datagram is still there for the driver to read");
            wait.await(TimeUnit.MILLISECONDS.toNanos(50)); // nothing left to read: the wait runs its 50 ms
            assertEquals(1, wait.datagramWakes(), "a wait with nothing to read ends by its time, not a datagram");
            assertEquals(2, wait.awaits());
        }
    }

    @Test
    void aWakeFromAnotherThreadEndsTheWait() throws Exception {
        try (DatagramChannel socket = openBound(); DatagramWait wait = DatagramWait.open(Throwable::printStackTrace)) {
            wait.register(socket);
            final CompletableFuture<Void> woken = CompletableFuture.runAsync(() -> {
                sleepMs(200);
                wait.wake();
            });
            wait.await(LONG_WAIT_NS);
            woken.get(10, TimeUnit.SECONDS);
            assertEquals(0, wait.datagramWakes());
        }
    }

    @Test
    void aWakeBeforeTheWaitEndsTheNextWaitAtOnceAndOnlyThatOne() throws Exception {
        try (DatagramChannel socket = openBound(); DatagramWait wait = DatagramWait.open(Throwable::printStackTrace)) {
            wait.register(socket);
            wait.wake(); // e.g. a worker queued a frame while the agent was in its duty cycle
            wait.await(LONG_WAIT_NS);
            assertEquals(0, wait.awaits(), "the wait did not select at all");
            wait.await(TimeUnit.MILLISECONDS.toNanos(30));
            assertEquals(1, wait.awaits(), "the wake was used up: the next wait selected");
            assertEquals(0, wait.datagramWakes());
        }
    }

    @Test
    void aWakeAfterTheWaitDecidedToSelectStillEndsTheSelect() throws Exception {
        // The window a lost wake would fall into: the wait saw no wake and is about to select when one comes.
        try (DatagramChannel socket = openBound(); DatagramWait wait = DatagramWait.open(Throwable::printStackTrace)) {
            wait.register(socket);
            wait.beforeSelect(wait::wake);
            wait.await(LONG_WAIT_NS);
            assertEquals(1, wait.awaits(), "it did select, and the wake ended the select");
        }
    }

    @Test
    void wakesRacingTheWaitAreNeverLost() throws Exception {
        // A smoke test: many rounds of a wake from another thread racing the start of a wait; each wait must end (the
        // test's timeout would catch one that waited its 10 minutes). The exact window is the test above.
        try (DatagramChannel socket = openBound(); DatagramWait wait = DatagramWait.open(Throwable::printStackTrace)) {
            wait.register(socket);
            for (int round = 0; round < 2_000; round++) {
                final CompletableFuture<Void> woken = CompletableFuture.runAsync(wait::wake);
                wait.await(LONG_WAIT_NS);
                woken.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aClosedSocketIsNotWatchedAndAWakeAfterCloseIsHarmless() throws Exception {
        final List<Throwable> errors = new ArrayList<>();
        final DatagramWait wait = DatagramWait.open(errors::add);
        final DatagramChannel socket = openBound();
        socket.close();
        wait.register(socket);
        wait.await(TimeUnit.MILLISECONDS.toNanos(5));
        wait.close();
        wait.wake();
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void aSocketTheDriverClosedIsReleasedWhenTheNextOneIsWatchedEvenIfTheAgentNeverWaits() throws Exception {
        // The JDK closes a registered channel only when its selector next selects; a busy agent never waits, and a
        // driver that opens and closes publications would otherwise keep their ports bound for the whole run.
        try (DatagramWait wait = DatagramWait.open(Throwable::printStackTrace); DatagramChannel other = openBound()) {
            final DatagramChannel closed = openBound();
            final InetSocketAddress address = (InetSocketAddress) closed.getLocalAddress();
            wait.register(closed);
            closed.close();
            wait.register(other);
            try (DatagramChannel again = DatagramChannel.open()) {
                again.bind(address); // throws BindException if the closed socket were still bound
            }
        }
    }

    private static DatagramChannel openBound() throws Exception {
        final DatagramChannel socket = DatagramChannel.open();
        socket.bind(new InetSocketAddress("127.0.0.1", 0));
        socket.configureBlocking(false);
        return socket;
    }

    private static void send(final DatagramChannel sender, final DatagramChannel to) {
        try {
            sender.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), to.getLocalAddress());
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleepMs(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
