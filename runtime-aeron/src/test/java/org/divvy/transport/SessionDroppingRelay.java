package org.divvy.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;

/**
 * A UDP relay on loopback between one Aeron sender and one receiver endpoint, for tests that must lose a stream's
 * datagrams for real: the sender's channel points at {@link #endpoint()} (a peer route), the relay forwards what it
 * sends to the receiver and the receiver's answers (status messages, NAKs) back to it. On {@link #dropSessionsSeen()}
 * it drops, from then on, every datagram the sender sends for a session it has seen so far (data, heartbeats,
 * retransmits, setups), while new sessions and the receiver's answers pass; {@link #passAll()} ends that.
 */
final class SessionDroppingRelay implements AutoCloseable {
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final InetSocketAddress target;
    private final Selector selector;
    private final Thread thread;
    private final Set<Integer> seen = ConcurrentHashMap.newKeySet();
    private final Set<Integer> dropped = ConcurrentHashMap.newKeySet();
    private final AtomicLong datagramsDropped = new AtomicLong();
    private volatile SocketAddress sender;
    private volatile boolean running = true;

    /** @param targetEndpoint the receiver's {@code host:port}. */
    SessionDroppingRelay(final String targetEndpoint) {
        final int colon = targetEndpoint.lastIndexOf(':');
        target = new InetSocketAddress(targetEndpoint.substring(0, colon), Integer.parseInt(targetEndpoint.substring(colon + 1)));
        try {
            front = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            back = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            front.configureBlocking(false);
            back.configureBlocking(false);
            selector = Selector.open();
            front.register(selector, SelectionKey.OP_READ);
            back.register(selector, SelectionKey.OP_READ);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        thread = new Thread(this::run, "session-dropping-relay");
        thread.setDaemon(true);
        thread.start();
    }

    /** The {@code host:port} the sender's channel must point at. */
    String endpoint() {
        final InetSocketAddress local;
        try {
            local = (InetSocketAddress) front.getLocalAddress();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return "127.0.0.1:" + local.getPort();
    }

    /** From now on, drops every datagram the sender sends for a session seen so far. */
    void dropSessionsSeen() {
        dropped.addAll(seen);
    }

    /** Lets every datagram through again. */
    void passAll() {
        dropped.clear();
    }

    long datagramsDropped() {
        return datagramsDropped.get();
    }

    private void run() {
        final ByteBuffer datagram = ByteBuffer.allocateDirect(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (running) {
                selector.select(10);
                selector.selectedKeys().clear();
                SocketAddress from;
                while ((from = front.receive(datagram.clear())) != null) {
                    sender = from;
                    datagram.flip();
                    final int session = sessionId(datagram);
                    seen.add(session);
                    if (dropped.contains(session)) {
                        datagramsDropped.incrementAndGet();
                    } else {
                        back.send(datagram, target);
                    }
                }
                while (back.receive(datagram.clear()) != null) {
                    datagram.flip();
                    final SocketAddress to = sender;
                    if (to != null) {
                        front.send(datagram, to);
                    }
                }
            }
        } catch (final IOException e) {
            if (running) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The session of the datagram's first frame (Aeron batches only one session's frames in a datagram). */
    private static int sessionId(final ByteBuffer datagram) {
        if (datagram.remaining() < DataHeaderFlyweight.HEADER_LENGTH) {
            return 0;
        }
        final int type = datagram.getShort(HeaderFlyweight.TYPE_FIELD_OFFSET) & 0xFFFF;
        // DATA, PAD and SETUP have it after the term offset; an RTT measurement right after the common header
        final int at = type == HeaderFlyweight.HDR_TYPE_RTTM ? HeaderFlyweight.MIN_HEADER_LENGTH
            : DataHeaderFlyweight.SESSION_ID_FIELD_OFFSET;
        return datagram.getInt(at);
    }

    @Override
    public void close() throws InterruptedException, IOException {
        running = false;
        selector.wakeup();
        thread.join(5_000);
        selector.close();
        front.close();
        back.close();
    }
}
