package org.divvy.perf.lanwan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;

/**
 * The nodes' UDP ports of a {@link WanTopology}, held by this process until each node is about to bind its own. The
 * relay binds two sockets per link on ephemeral ports (6,144 for 4 sites x 16 nodes), and the nodes' publications
 * bind more: with the nodes' ports inside the kernel's ephemeral range (32768-60999 here) one of those binds took a
 * node's port before the node started ("Address already in use"), so the ports are taken first and released one at
 * a time, right before the node that owns it starts.
 */
public final class PortReservation implements AutoCloseable {
    private final DatagramChannel[] channels;

    private PortReservation(final DatagramChannel[] channels) {
        this.channels = channels;
    }

    /** Binds {@code HOST:port(i)} for every node of {@code topology}. */
    public static PortReservation of(final WanTopology topology) {
        final DatagramChannel[] channels = new DatagramChannel[topology.nodes()];
        final PortReservation reservation = new PortReservation(channels);
        try {
            for (int i = 0; i < channels.length; i++) {
                channels[i] = DatagramChannel.open();
                channels[i].setOption(StandardSocketOptions.SO_REUSEADDR, false);
                channels[i].bind(new InetSocketAddress(WanTopology.HOST, topology.port(i)));
            }
        } catch (final IOException ex) {
            reservation.close();
            throw new UncheckedIOException("cannot reserve the nodes' UDP ports " + topology.port(0) + "-"
                + topology.port(channels.length - 1) + " on " + WanTopology.HOST + ": another process holds one; choose --base-port", ex);
        }
        return reservation;
    }

    /** Frees node {@code node}'s port, for the node to bind now. */
    public void release(final int node) {
        final DatagramChannel channel = channels[node];
        channels[node] = null;
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // a socket that does not close is freed with the process
            }
        }
    }

    /** Frees every port not released yet. */
    @Override
    public void close() {
        for (int i = 0; i < channels.length; i++) {
            release(i);
        }
    }
}
