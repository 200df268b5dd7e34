package org.divvy.transport;

import java.util.Map;

import org.divvy.DivvyException;
import org.divvy.NetworkConfig;

/**
 * Immutable settings of one node's transport; {@link Builder#build()} validates every value.
 *
 * @param host                   the address the node's subscription binds to and advertises to peers.
 * @param port                   the UDP port of the subscription; 0 picks an ephemeral port.
 * @param termLengthBytes        term buffer length of each publication: a power of two in
 *                               [64 KiB, 1 GiB]. Small by default (256 KiB) so many peers fit in
 *                               /dev/shm; the maximum message before chunking is an eighth of it.
 * @param streamId               the Aeron stream id all Divvy traffic uses.
 * @param aeronDirectoryName     null for an embedded driver in INVOKER mode stepped by the network
 *                               agent (the default); else the directory of an external driver to
 *                               connect to as a client.
 * @param maxOutboundQueueBytes  per peer, the bytes queued while the peer is unconnected or back
 *                               pressured; beyond it sends fail and are counted.
 * @param maxReassemblyBytes     the bytes all partially received chunked messages may hold together.
 * @param maxMessageBytes        the largest message accepted for sending (chunked if needed).
 * @param peerRoutes             endpoint rewrites applied when a publication to a peer is created:
 *                               {@code "host:port"} of a peer to the {@code "host:port"} its datagrams
 *                               are sent to instead (e.g. a WAN relay in front of it). Peers not in the
 *                               map are sent to directly. Empty by default; the peer is still known by
 *                               its own endpoint everywhere else.
 */
public record TransportSettings(
    String host,
    int port,
    int termLengthBytes,
    int streamId,
    String aeronDirectoryName,
    int maxOutboundQueueBytes,
    int maxReassemblyBytes,
    int maxMessageBytes,
    Map<String, String> peerRoutes) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_TERM_LENGTH_BYTES = 256 * 1024;
    public static final int MIN_TERM_LENGTH_BYTES = 64 * 1024;
    public static final int MAX_TERM_LENGTH_BYTES = 1 << 30;
    public static final int DEFAULT_STREAM_ID = 0xD1;
    public static final int DEFAULT_MAX_OUTBOUND_QUEUE_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_MAX_REASSEMBLY_BYTES = 64 * 1024 * 1024;
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    /** The transport settings a node's network options give. */
    public static TransportSettings from(final NetworkConfig config) {
        return builder().host(config.bindHost()).port(config.port()).termLengthBytes(config.termLengthBytes())
            .aeronDirectoryName(config.aeronDirectory()).peerRoutes(config.peerRoutes()).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The endpoint others reach this node at, given the port actually bound. */
    public String endpoint(final int boundPort) {
        return host + ":" + boundPort;
    }

    /** Where datagrams for {@code peerEndpoint} are sent: its route if one is set, else the peer itself. */
    public String sendEndpoint(final String peerEndpoint) {
        return peerRoutes.getOrDefault(peerEndpoint, peerEndpoint);
    }

    /** Collects settings; {@link #build()} validates them. */
    public static final class Builder {
        private String host = DEFAULT_HOST;
        private int port;
        private int termLengthBytes = DEFAULT_TERM_LENGTH_BYTES;
        private int streamId = DEFAULT_STREAM_ID;
        private String aeronDirectoryName;
        private int maxOutboundQueueBytes = DEFAULT_MAX_OUTBOUND_QUEUE_BYTES;
        private int maxReassemblyBytes = DEFAULT_MAX_REASSEMBLY_BYTES;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private Map<String, String> peerRoutes = Map.of();

        public Builder host(final String host) {
            this.host = host;
            return this;
        }

        public Builder port(final int port) {
            this.port = port;
            return this;
        }

        public Builder termLengthBytes(final int termLengthBytes) {
            this.termLengthBytes = termLengthBytes;
            return this;
        }

        public Builder streamId(final int streamId) {
            this.streamId = streamId;
            return this;
        }

        public Builder aeronDirectoryName(final String aeronDirectoryName) {
            this.aeronDirectoryName = aeronDirectoryName;
            return this;
        }

        public Builder maxOutboundQueueBytes(final int maxOutboundQueueBytes) {
            this.maxOutboundQueueBytes = maxOutboundQueueBytes;
            return this;
        }

        public Builder maxReassemblyBytes(final int maxReassemblyBytes) {
            this.maxReassemblyBytes = maxReassemblyBytes;
            return this;
        }

        public Builder maxMessageBytes(final int maxMessageBytes) {
            this.maxMessageBytes = maxMessageBytes;
            return this;
        }

        /** See {@link TransportSettings#peerRoutes()}: peer {@code "host:port"} to the {@code "host:port"} to send to. */
        public Builder peerRoutes(final Map<String, String> peerRoutes) {
            this.peerRoutes = peerRoutes;
            return this;
        }

        public TransportSettings build() {
            if (host == null || host.isEmpty() || host.indexOf(':') >= 0) {
                throw new DivvyException("host=" + host + ", must be a host name or IPv4 address without a port");
            }
            if (port < 0 || port > 65535) {
                throw new DivvyException("port=" + port + ", must be in [0, 65535] (0 = ephemeral)");
            }
            if (termLengthBytes < MIN_TERM_LENGTH_BYTES || termLengthBytes > MAX_TERM_LENGTH_BYTES ||
                Integer.bitCount(termLengthBytes) != 1) {
                throw new DivvyException("termLengthBytes=" + termLengthBytes + ", must be a power of two in [" +
                    MIN_TERM_LENGTH_BYTES + ", " + MAX_TERM_LENGTH_BYTES + "]");
            }
            if (maxMessageBytes < 1024) {
                throw new DivvyException("maxMessageBytes=" + maxMessageBytes + ", must be >= 1024");
            }
            if (maxOutboundQueueBytes < maxMessageBytes) {
                throw new DivvyException("maxOutboundQueueBytes=" + maxOutboundQueueBytes + ", must be >= maxMessageBytes=" +
                    maxMessageBytes + " so one largest message can queue");
            }
            if (maxReassemblyBytes < maxMessageBytes) {
                throw new DivvyException("maxReassemblyBytes=" + maxReassemblyBytes + ", must be >= maxMessageBytes=" +
                    maxMessageBytes + " so one largest message can be reassembled");
            }
            if (peerRoutes == null) {
                throw new DivvyException("peerRoutes=null, must be a map (empty for no routes)");
            }
            for (final Map.Entry<String, String> route : peerRoutes.entrySet()) {
                checkHostPort("peerRoutes key", route.getKey());
                checkHostPort("peerRoutes[" + route.getKey() + "]", route.getValue());
            }
            return new TransportSettings(host, port, termLengthBytes, streamId, aeronDirectoryName, maxOutboundQueueBytes,
                maxReassemblyBytes, maxMessageBytes, Map.copyOf(peerRoutes));
        }

        private static void checkHostPort(final String what, final String value) {
            final int colon = value == null ? -1 : value.lastIndexOf(':');
            boolean valid = colon > 0 && colon < value.length() - 1;
            if (valid) {
                try {
                    final int port = Integer.parseInt(value.substring(colon + 1));
                    valid = port > 0 && port <= 65535;
                } catch (final NumberFormatException ex) {
                    valid = false;
                }
            }
            if (!valid) {
                throw new DivvyException(what + "=" + value + ", must be host:port with a port in [1, 65535]");
            }
        }
    }
}
