package org.divvy.membership;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.function.IntConsumer;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayList;

/**
 * Asks the operating system whether a silent member's process still holds its UDP port, so that a killed node
 * that no launcher watches (a {@code divvy node --join} on another machine) is declared dead in a fraction of a
 * second instead of after the failure detector's acceptable pause. A one-byte datagram goes from a socket
 * connected to the member's endpoint; if no socket is bound there, the member's host answers with ICMP "port
 * unreachable", which Linux (and the other systems Java runs on) reports on the connected socket's next read as a
 * {@link PortUnreachableException}. Only the kernel of a host whose port is closed sends that answer, and a killed
 * process's sockets are closed by its kernel at once; a process that is merely stopped (SIGSTOP, a long GC pause, a
 * suspended VM) still holds its port, so its host stays silent and only the failure detector can remove it: the
 * probe never shortens the acceptable pause for a pause. The registry stops probing a member after 5 s of silence
 * ({@code Registry.PROBE_UNTIL_SILENT_NS}): a client of an external media driver does not hold its port itself,
 * and the driver releases it once the client has been silent for its liveness timeout (10 s by default). A datagram that reaches a live node is one Aeron counts as
 * invalid and drops (its version byte is 0).
 *
 * <p>Silence is what proves nothing: no answer (a dead host, a firewall that drops, ICMP rate-limited on a LAN,
 * where the receiver answers about one probe a second per sender) leaves the member to the failure detector. A
 * firewall that <em>rejects</em> with "port unreachable" is read as a closed port: such a member cannot be reached
 * from the registry anyway. Endpoints whose host is a name rather than an address literal are not probed: resolving
 * it could block the agent thread on a DNS lookup.
 *
 * <p>A socket is opened only for a member that is silent, kept while it stays silent (a probe is sent again on
 * each call to {@link #probe}), and closed when it is heard again, is removed or is found gone. Owned by the agent
 * thread that drives the registry.
 */
final class ExitProbe implements AutoCloseable {
    /** The probe's payload: one zero byte (a zero-length datagram draws no ICMP answer on Linux). */
    private final ByteBuffer payload = ByteBuffer.allocateDirect(1);
    /** Where a read of a probe socket lands; nothing legitimate ever arrives on one. */
    private final ByteBuffer discard = ByteBuffer.allocateDirect(64);
    private final Int2ObjectHashMap<DatagramChannel> probes = new Int2ObjectHashMap<>();
    /** Members whose closed port a send reported (the kernel reports an ICMP answer once, to the next call). */
    private final IntArrayList foundClosed = new IntArrayList();
    /** Members whose endpoint cannot be probed (a host name, or the socket could not be opened): not tried again. */
    private final Int2ObjectHashMap<String> unprobeable = new Int2ObjectHashMap<>();

    /**
     * Sends a probe to member {@code id} at {@code endpoint} ({@code host:port}), opening its socket on the first
     * call; returns 1 if a datagram went out, else 0 (the endpoint cannot be probed).
     */
    int probe(final int id, final String endpoint) {
        DatagramChannel channel = probes.get(id);
        if (channel == null) {
            if (unprobeable.containsKey(id)) {
                return 0;
            }
            channel = open(endpoint);
            if (channel == null) {
                unprobeable.put(id, endpoint);
                return 0;
            }
            probes.put(id, channel);
        }
        try {
            payload.clear();
            channel.write(payload);
            return 1;
        } catch (final PortUnreachableException e) {
            foundClosed.addInt(id); // the answer to an earlier probe, reported by this send instead of a read
            return 1;
        } catch (final IOException e) {
            forget(id); // another error (host unreachable, a network blip) proves nothing: a fresh socket next time
            return 0;
        }
    }

    /**
     * Reads every open probe socket and tells {@code onGone} the members whose port was found closed (their
     * sockets are closed and forgotten first); returns how many.
     */
    int pollGone(final IntConsumer onGone) {
        if (probes.isEmpty()) {
            return 0;
        }
        int gone = 0;
        for (int i = 0; i < foundClosed.size(); i++) {
            final int id = foundClosed.getInt(i);
            if (probes.containsKey(id)) {
                forget(id);
                onGone.accept(id);
                gone++;
            }
        }
        foundClosed.clear();
        final Int2ObjectHashMap<DatagramChannel>.EntryIterator it = probes.entrySet().iterator();
        while (it.hasNext()) {
            it.next();
            final DatagramChannel channel = it.getValue();
            boolean closed = false;
            try {
                discard.clear();
                channel.read(discard);
            } catch (final PortUnreachableException e) {
                closed = true;
            } catch (final IOException e) {
                // another error (host unreachable, say) proves nothing about the process: the detector decides
            }
            if (closed) {
                final int id = it.getIntKey();
                it.remove();
                closeQuietly(channel);
                onGone.accept(id);
                gone++;
            }
        }
        return gone;
    }

    /** Whether member {@code id} has a probe open (it is silent and was probed). */
    boolean isProbing(final int id) {
        return probes.containsKey(id);
    }

    /** Member {@code id} was heard again, or is no longer alive: its probe, if any, is closed. */
    void forget(final int id) {
        unprobeable.remove(id);
        final DatagramChannel channel = probes.remove(id);
        if (channel != null) {
            closeQuietly(channel);
        }
    }

    @Override
    public void close() {
        probes.values().forEach(ExitProbe::closeQuietly);
        probes.clear();
    }

    /** A non-blocking socket connected to {@code endpoint}, or null if its host is a name or it cannot be opened. */
    private static DatagramChannel open(final String endpoint) {
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = endpoint.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (!isAddressLiteral(host)) {
            return null;
        }
        DatagramChannel channel = null;
        try {
            final int port = Integer.parseInt(endpoint.substring(colon + 1));
            // a literal: getByName parses it without a lookup
            final InetSocketAddress target = new InetSocketAddress(InetAddress.getByName(host), port);
            channel = DatagramChannel.open();
            channel.configureBlocking(false);
            channel.connect(target);
            return channel;
        } catch (final IOException | RuntimeException e) {
            if (channel != null) {
                closeQuietly(channel);
            }
            return null;
        }
    }

    /** Whether {@code host} is an IPv4 dotted quad or an IPv6 literal (so that no name lookup is needed). */
    static boolean isAddressLiteral(final String host) {
        if (host.indexOf(':') >= 0) {
            for (int i = 0; i < host.length(); i++) {
                final char c = host.charAt(i);
                if (!(c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
                    return false;
                }
            }
            return true;
        }
        int parts = 0;
        int digits = 0;
        for (int i = 0; i <= host.length(); i++) {
            if (i == host.length() || host.charAt(i) == '.') {
                if (digits == 0 || digits > 3) {
                    return false;
                }
                parts++;
                digits = 0;
            } else if (host.charAt(i) >= '0' && host.charAt(i) <= '9') {
                digits++;
            } else {
                return false;
            }
        }
        return parts == 4;
    }

    private static void closeQuietly(final DatagramChannel channel) {
        try {
            channel.close();
        } catch (final IOException e) {
            // closing a datagram socket has nothing to flush
        }
    }
}
