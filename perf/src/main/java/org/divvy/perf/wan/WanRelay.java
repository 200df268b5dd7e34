package org.divvy.perf.wan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyException;

/**
 * A user-space UDP relay that emulates wide-area links between sites on one machine (see
 * {@link WanLinkSpec} for what a link relays, {@link WanLinkConfig} for the impairments).
 *
 * <p>One thread does everything: it waits in a {@link Selector} for datagrams or for the next release
 * time, stamps each arrival, asks the direction's {@link LinkShaper} when (or whether) it leaves, keeps
 * it in a queue ordered by release time, and sends it when due. Waits of a millisecond or more use the
 * selector's timeout (millisecond granularity); a release due sooner is waited for with short parks
 * between non-blocking selects, so arrivals are still stamped within {@link #SHORT_WAIT_MAX_NS}. With
 * nothing queued the thread blocks in the selector and uses no CPU.
 */
public final class WanRelay implements AutoCloseable {
    /** Longest park while a release is due in under a millisecond: bounds how late an arrival is stamped. */
    static final long SHORT_WAIT_MAX_NS = TimeUnit.MICROSECONDS.toNanos(100);
    /** Largest UDP payload. */
    private static final int MAX_DATAGRAM_BYTES = 65_535;
    /** Socket buffers sized for bursts: the relay must not be the one dropping datagrams. */
    private static final int SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;
    private static final long CLOSE_TIMEOUT_MS = 5_000;
    private static final long NANOS_PER_MILLI = 1_000_000;

    private final Selector selector;
    private final Map<String, Link> links = new LinkedHashMap<>();
    private final PriorityQueue<PendingDatagram> pending = new PriorityQueue<>();
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM_BYTES);
    private final Thread thread;
    private volatile boolean running = true;
    private long sequence;

    private WanRelay(final List<WanLinkSpec> specs) throws IOException {
        selector = Selector.open();
        try {
            for (final WanLinkSpec spec : specs) {
                if (links.containsKey(spec.name())) {
                    throw new IllegalArgumentException("link name " + spec.name() + " is used twice");
                }
                links.put(spec.name(), new Link(spec, selector));
            }
        } catch (final IOException | RuntimeException ex) {
            closeChannels();
            selector.close();
            throw ex;
        }
        thread = new Thread(this::runLoop, "wan-relay");
        thread.setDaemon(true);
    }

    /** Binds every link's sockets and starts the relay thread. */
    public static WanRelay start(final List<WanLinkSpec> specs) {
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("links=0, must be >= 1");
        }
        final WanRelay relay;
        try {
            relay = new WanRelay(specs);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot bind the relay's sockets", ex);
        }
        relay.thread.start();
        return relay;
    }

    /** The address clients send to for link {@code name} (the bound port when the spec asked for port 0). */
    public InetSocketAddress listenAddress(final String name) {
        return link(name).listenAddress;
    }

    /** The address the target sees datagrams of link {@code name} coming from. */
    public InetSocketAddress upstreamAddress(final String name) {
        return link(name).upstreamAddress;
    }

    /** Counters of the client-to-target direction of link {@code name}. */
    public WanLinkCounters forwardCounters(final String name) {
        return link(name).forward.counters;
    }

    /** Counters of the target-to-client direction of link {@code name}. */
    public WanLinkCounters reverseCounters(final String name) {
        return link(name).reverse.counters;
    }

    /** Stops the thread (datagrams still queued are dropped) and closes every socket. */
    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(CLOSE_TIMEOUT_MS);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        closeChannels();
        try {
            selector.close();
        } catch (final IOException ignored) {
            // Nothing left to release.
        }
        if (thread.isAlive()) {
            throw new DivvyException("wan-relay thread did not stop within " + CLOSE_TIMEOUT_MS + " ms");
        }
    }

    private Link link(final String name) {
        final Link link = links.get(name);
        if (link == null) {
            throw new IllegalArgumentException("no link named " + name + "; links: " + links.keySet());
        }
        return link;
    }

    private void runLoop() {
        try {
            while (running) {
                final long nowNs = System.nanoTime();
                sendDue(nowNs);
                waitForWork(nowNs);
                receiveReady();
            }
        } catch (final ClosedSelectorException ex) {
            running = false;
        } catch (final IOException ex) {
            running = false;
            throw new UncheckedIOException("wan-relay stopped", ex);
        }
    }

    private void sendDue(final long nowNs) {
        PendingDatagram datagram;
        while ((datagram = pending.peek()) != null && datagram.releaseNs - nowNs <= 0) {
            pending.poll();
            datagram.direction.send(datagram);
        }
    }

    private void waitForWork(final long nowNs) throws IOException {
        final PendingDatagram next = pending.peek();
        if (next == null) {
            selector.select();
            return;
        }
        final long waitNs = next.releaseNs - nowNs;
        if (waitNs >= NANOS_PER_MILLI) {
            selector.select(waitNs / NANOS_PER_MILLI);
        } else if (selector.selectNow() == 0) {
            LockSupport.parkNanos(Math.min(waitNs, SHORT_WAIT_MAX_NS));
        }
    }

    private void receiveReady() throws IOException {
        for (final SelectionKey key : selector.selectedKeys()) {
            if (key.isValid() && key.isReadable()) {
                final Direction direction = (Direction)key.attachment();
                receiveAll(direction);
            }
        }
        selector.selectedKeys().clear();
    }

    private void receiveAll(final Direction direction) {
        while (true) {
            receiveBuffer.clear();
            final SocketAddress source;
            try {
                source = direction.in.receive(receiveBuffer);
            } catch (final IOException ex) {
                direction.counters.receiveFailed.incrementAndGet();
                return;
            }
            if (source == null) {
                return;
            }
            final long arrivalNs = System.nanoTime();
            receiveBuffer.flip();
            direction.onReceive(source, arrivalNs, receiveBuffer);
        }
    }

    private void enqueue(final Direction direction, final long releaseNs, final ByteBuffer payload, final SocketAddress destination) {
        final byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        pending.add(new PendingDatagram(releaseNs, sequence++, bytes, direction, destination));
    }

    private void closeChannels() {
        for (final Link link : links.values()) {
            link.close();
        }
    }

    /** One datagram waiting for its release time; ties keep arrival order. */
    private static final class PendingDatagram implements Comparable<PendingDatagram> {
        final long releaseNs;
        final long sequence;
        final byte[] payload;
        final Direction direction;
        final SocketAddress destination;

        PendingDatagram(final long releaseNs, final long sequence, final byte[] payload, final Direction direction,
            final SocketAddress destination) {
            this.releaseNs = releaseNs;
            this.sequence = sequence;
            this.payload = payload;
            this.direction = direction;
            this.destination = destination;
        }

        @Override
        public int compareTo(final PendingDatagram other) {
            final long byTime = releaseNs - other.releaseNs;
            if (byTime != 0) {
                return byTime < 0 ? -1 : 1;
            }
            return Long.compare(sequence, other.sequence);
        }
    }

    /** One direction of a link: the socket it reads, the socket it sends from, its shaper and counters. */
    private final class Direction {
        final DatagramChannel in;
        final DatagramChannel out;
        final LinkShaper shaper;
        final WanLinkCounters counters = new WanLinkCounters();
        final Link link;
        final boolean isForward;

        Direction(final Link link, final boolean isForward, final DatagramChannel in, final DatagramChannel out,
            final WanLinkConfig config) {
            this.link = link;
            this.isForward = isForward;
            this.in = in;
            this.out = out;
            this.shaper = new LinkShaper(config);
        }

        void onReceive(final SocketAddress source, final long arrivalNs, final ByteBuffer payload) {
            counters.received.incrementAndGet();
            final SocketAddress destination;
            if (isForward) {
                link.lastClient = source;
                destination = link.spec.targetAddress();
            } else {
                destination = link.lastClient;
                if (destination == null) {
                    counters.noRoute.incrementAndGet();
                    return;
                }
            }
            switch (shaper.admit(arrivalNs, payload.remaining())) {
                case LinkShaper.LOST:
                    counters.lost.incrementAndGet();
                    break;
                case LinkShaper.QUEUE_FULL:
                    counters.queueFull.incrementAndGet();
                    break;
                default:
                    enqueue(this, shaper.lastReleaseNs(), payload, destination);
                    break;
            }
        }

        void send(final PendingDatagram datagram) {
            try {
                if (out.send(ByteBuffer.wrap(datagram.payload), datagram.destination) == 0) {
                    counters.sendFailed.incrementAndGet();
                    return;
                }
            } catch (final IOException ex) {
                counters.sendFailed.incrementAndGet();
                return;
            }
            counters.delivered.incrementAndGet();
            counters.deliveredBytes.addAndGet(datagram.payload.length);
        }
    }

    /** The two sockets of a link: one facing the clients, one facing the target. */
    private final class Link {
        final WanLinkSpec spec;
        final DatagramChannel listen;
        final DatagramChannel upstream;
        final InetSocketAddress listenAddress;
        final InetSocketAddress upstreamAddress;
        final Direction forward;
        final Direction reverse;
        /** Where replies go: the last address that sent on the listen socket. Relay thread only. */
        SocketAddress lastClient;

        Link(final WanLinkSpec spec, final Selector selector) throws IOException {
            this.spec = spec;
            final List<DatagramChannel> opened = new ArrayList<>(2);
            try {
                listen = open(spec.listenAddress(), opened);
                upstream = open(new InetSocketAddress(spec.listenAddress().getAddress(), 0), opened);
            } catch (final IOException | RuntimeException ex) {
                for (final DatagramChannel channel : opened) {
                    channel.close();
                }
                throw ex;
            }
            listenAddress = (InetSocketAddress)listen.getLocalAddress();
            upstreamAddress = (InetSocketAddress)upstream.getLocalAddress();
            forward = new Direction(this, true, listen, upstream, spec.forward());
            reverse = new Direction(this, false, upstream, listen, spec.reverse());
            listen.register(selector, SelectionKey.OP_READ, forward);
            upstream.register(selector, SelectionKey.OP_READ, reverse);
        }

        private DatagramChannel open(final InetSocketAddress address, final List<DatagramChannel> opened) throws IOException {
            final DatagramChannel channel = DatagramChannel.open();
            opened.add(channel);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            channel.bind(address);
            channel.configureBlocking(false);
            return channel;
        }

        void close() {
            for (final DatagramChannel channel : new DatagramChannel[] {listen, upstream}) {
                try {
                    channel.close();
                } catch (final IOException ignored) {
                    // Closing; nothing to do.
                }
            }
        }
    }
}
