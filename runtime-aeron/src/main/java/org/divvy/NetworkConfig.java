package org.divvy;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.divvy.membership.MembershipSettings;
import org.divvy.transport.TransportSettings;

/**
 * How a node takes part in a computation over several machines: where it listens, whom it joins, its
 * site and steal policy, and its Aeron and membership timings. Immutable; {@link Builder#build()}
 * validates every value once, errors name the value and its bound. Each option has one
 * {@code DEFAULT_} constant and one system property, read by {@link #fromProperties(Properties)}.
 *
 * <pre>{@code
 * NetworkConfig net = NetworkConfig.builder().join("10.0.0.5:40123").site("A").build();
 * try (DivvyNode node = DivvyNode.start(NodeConfig.builder().network(net).build())) { ... }
 * }</pre>
 */
public final class NetworkConfig {
    /** Default host others reach this node at: the loopback, so nothing is exposed by accident. */
    public static final String DEFAULT_BIND_HOST = TransportSettings.DEFAULT_HOST;
    /** Property for {@link Builder#bindHost(String)}. */
    public static final String BIND_HOST_PROPERTY = "divvy.host";

    /** Default UDP port: 0, an ephemeral port ({@link DivvyNode#endpoint()} tells which). */
    public static final int DEFAULT_PORT = 0;
    /** Property for {@link Builder#port(int)}. */
    public static final String PORT_PROPERTY = "divvy.port";

    /** Default registry address: none, so this node hosts the registry and is node 0. */
    public static final String DEFAULT_JOIN = null;
    /** Property for {@link Builder#join(String)}. */
    public static final String JOIN_PROPERTY = "divvy.join";

    /** Default site (cluster) label; nodes with the same label steal from each other first under CRS. */
    public static final String DEFAULT_SITE = MembershipSettings.DEFAULT_SITE;
    /** Property for {@link Builder#site(String)}. */
    public static final String SITE_PROPERTY = "divvy.site";

    /** Default steal policy: CRS, which equals RS on one site and hides wide-area latency on many. */
    public static final StealPolicy DEFAULT_STEAL_POLICY = StealPolicy.CRS;
    /** Property for {@link Builder#stealPolicy(StealPolicy)}: {@code RS} or {@code CRS}. */
    public static final String STEAL_POLICY_PROPERTY = "divvy.policy";

    /** Default Aeron directory: none, so the node embeds its own media driver (deleted on close). */
    public static final String DEFAULT_AERON_DIRECTORY = null;
    /** Property for {@link Builder#aeronDirectory(String)}. */
    public static final String AERON_DIRECTORY_PROPERTY = "divvy.aeron.dir";

    /**
     * Default term buffer length of each publication (256 KiB): small, so many peers fit in /dev/shm;
     * larger messages are split and reassembled.
     */
    public static final int DEFAULT_TERM_LENGTH_BYTES = TransportSettings.DEFAULT_TERM_LENGTH_BYTES;
    /** Property for {@link Builder#termLengthBytes(int)}. */
    public static final String TERM_LENGTH_BYTES_PROPERTY = "divvy.aeron.termLengthBytes";

    /** Default interval of heartbeats between nodes and the registry (100 ms). */
    public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = TimeUnit.NANOSECONDS.toMillis(MembershipSettings.DEFAULT_HEARTBEAT_INTERVAL_NS);
    /** Property for {@link Builder#heartbeatIntervalMs(long)}. */
    public static final String HEARTBEAT_INTERVAL_MS_PROPERTY = "divvy.heartbeat.intervalMs";

    /** Default silence after which a node is declared dead (2 s). */
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = TimeUnit.NANOSECONDS.toMillis(MembershipSettings.DEFAULT_HEARTBEAT_TIMEOUT_NS);
    /** Property for {@link Builder#heartbeatTimeoutMs(long)}. */
    public static final String HEARTBEAT_TIMEOUT_MS_PROPERTY = "divvy.heartbeat.timeoutMs";

    /** Default time a node keeps trying to join before {@link DivvyNode#start} fails (10 s). */
    public static final long DEFAULT_JOIN_TIMEOUT_MS = TimeUnit.NANOSECONDS.toMillis(MembershipSettings.DEFAULT_JOIN_TIMEOUT_NS);
    /** Property for {@link Builder#joinTimeoutMs(long)}. */
    public static final String JOIN_TIMEOUT_MS_PROPERTY = "divvy.join.timeoutMs";

    /**
     * Default quiet time before a node enters deep idle (1000 ms): no local work, nothing stolen or given
     * away, only failed steals and heartbeats. In deep idle the network agent parks longer and failed
     * steals back off further, so an idle node costs well under 1% of a core; any work ends it at once.
     */
    public static final long DEFAULT_DEEP_IDLE_AFTER_MS = 1000;
    /** Property for {@link Builder#deepIdleAfterMs(long)}. */
    public static final String DEEP_IDLE_AFTER_MS_PROPERTY = "divvy.net.deepIdleAfterMs";

    /**
     * Default park of the network agent per idle cycle in deep idle (100 ms): how late a deep-idle node
     * answers a frame at most (awake: 1 ms).
     */
    public static final long DEFAULT_DEEP_IDLE_PARK_MS = 100;
    /** Property for {@link Builder#deepIdleParkMs(long)}. */
    public static final String DEEP_IDLE_PARK_MS_PROPERTY = "divvy.net.deepIdleParkMs";

    /**
     * Default longest pause between failed steals in deep idle (200 ms; awake: 20 ms): how long a
     * deep-idle node may take to notice that a run started on a peer.
     */
    public static final long DEFAULT_DEEP_IDLE_STEAL_BACKOFF_MS = 200;
    /** Property for {@link Builder#deepIdleStealBackoffMs(long)}. */
    public static final String DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY = "divvy.steal.deepIdleBackoffMs";

    /** The network agent's longest park between duty cycles while awake (1 ms): how late a steal request is answered at most. */
    public static final long AWAKE_MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The longest pause between failed steals while awake (20 ms): a node that ran dry notices new work within it. */
    public static final long STEAL_BACKOFF_MAX_MS = 20;

    /** Every property this class reads; any of them set turns networking on in {@link NodeConfig#fromProperties}. */
    static final String[] PROPERTIES = {
        BIND_HOST_PROPERTY, PORT_PROPERTY, JOIN_PROPERTY, SITE_PROPERTY, STEAL_POLICY_PROPERTY, AERON_DIRECTORY_PROPERTY,
        TERM_LENGTH_BYTES_PROPERTY, HEARTBEAT_INTERVAL_MS_PROPERTY, HEARTBEAT_TIMEOUT_MS_PROPERTY, JOIN_TIMEOUT_MS_PROPERTY,
        DEEP_IDLE_AFTER_MS_PROPERTY, DEEP_IDLE_PARK_MS_PROPERTY, DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY,
    };

    private final String bindHost;
    private final int port;
    private final String join;
    private final String site;
    private final StealPolicy stealPolicy;
    private final String aeronDirectory;
    private final int termLengthBytes;
    private final long heartbeatIntervalMs;
    private final long heartbeatTimeoutMs;
    private final long joinTimeoutMs;
    private final long deepIdleAfterMs;
    private final long deepIdleParkMs;
    private final long deepIdleStealBackoffMs;
    private final Map<String, String> peerRoutes;

    private NetworkConfig(final Builder b) {
        bindHost = b.bindHost;
        port = b.port;
        join = b.join;
        site = b.site;
        stealPolicy = b.stealPolicy;
        aeronDirectory = b.aeronDirectory;
        termLengthBytes = b.termLengthBytes;
        heartbeatIntervalMs = b.heartbeatIntervalMs;
        heartbeatTimeoutMs = b.heartbeatTimeoutMs;
        joinTimeoutMs = b.joinTimeoutMs;
        deepIdleAfterMs = b.deepIdleAfterMs;
        deepIdleParkMs = b.deepIdleParkMs;
        deepIdleStealBackoffMs = b.deepIdleStealBackoffMs;
        peerRoutes = Map.copyOf(b.peerRoutes);
    }

    /** A builder holding every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's values. */
    public Builder toBuilder() {
        return new Builder().bindHost(bindHost).port(port).join(join).site(site).stealPolicy(stealPolicy)
            .aeronDirectory(aeronDirectory).termLengthBytes(termLengthBytes).heartbeatIntervalMs(heartbeatIntervalMs)
            .heartbeatTimeoutMs(heartbeatTimeoutMs).joinTimeoutMs(joinTimeoutMs).peerRoutes(peerRoutes)
            .deepIdleAfterMs(deepIdleAfterMs).deepIdleParkMs(deepIdleParkMs).deepIdleStealBackoffMs(deepIdleStealBackoffMs);
    }

    /** Whether any network property is present in {@code properties}. */
    static boolean anyPresent(final Properties properties) {
        for (final String name : PROPERTIES) {
            if (properties.getProperty(name) != null) {
                return true;
            }
        }
        return false;
    }

    /** The defaults, overridden by any network property present in {@code properties}. */
    public static NetworkConfig fromProperties(final Properties properties) {
        final Builder b = builder();
        final String host = properties.getProperty(BIND_HOST_PROPERTY);
        if (host != null) {
            b.bindHost(host.trim());
        }
        final String port = properties.getProperty(PORT_PROPERTY);
        if (port != null) {
            b.port((int)NodeConfig.parseLong(PORT_PROPERTY, port));
        }
        final String join = properties.getProperty(JOIN_PROPERTY);
        if (join != null && !join.isBlank()) {
            b.join(join.trim());
        }
        final String site = properties.getProperty(SITE_PROPERTY);
        if (site != null) {
            b.site(site.trim());
        }
        final String policy = properties.getProperty(STEAL_POLICY_PROPERTY);
        if (policy != null) {
            b.stealPolicy(parsePolicy(policy));
        }
        final String dir = properties.getProperty(AERON_DIRECTORY_PROPERTY);
        if (dir != null && !dir.isBlank()) {
            b.aeronDirectory(dir.trim());
        }
        final String term = properties.getProperty(TERM_LENGTH_BYTES_PROPERTY);
        if (term != null) {
            b.termLengthBytes((int)NodeConfig.parseLong(TERM_LENGTH_BYTES_PROPERTY, term));
        }
        final String interval = properties.getProperty(HEARTBEAT_INTERVAL_MS_PROPERTY);
        if (interval != null) {
            b.heartbeatIntervalMs(NodeConfig.parseLong(HEARTBEAT_INTERVAL_MS_PROPERTY, interval));
        }
        final String timeout = properties.getProperty(HEARTBEAT_TIMEOUT_MS_PROPERTY);
        if (timeout != null) {
            b.heartbeatTimeoutMs(NodeConfig.parseLong(HEARTBEAT_TIMEOUT_MS_PROPERTY, timeout));
        }
        final String joinTimeout = properties.getProperty(JOIN_TIMEOUT_MS_PROPERTY);
        if (joinTimeout != null) {
            b.joinTimeoutMs(NodeConfig.parseLong(JOIN_TIMEOUT_MS_PROPERTY, joinTimeout));
        }
        final String deepAfter = properties.getProperty(DEEP_IDLE_AFTER_MS_PROPERTY);
        if (deepAfter != null) {
            b.deepIdleAfterMs(NodeConfig.parseLong(DEEP_IDLE_AFTER_MS_PROPERTY, deepAfter));
        }
        final String deepPark = properties.getProperty(DEEP_IDLE_PARK_MS_PROPERTY);
        if (deepPark != null) {
            b.deepIdleParkMs(NodeConfig.parseLong(DEEP_IDLE_PARK_MS_PROPERTY, deepPark));
        }
        final String deepBackoff = properties.getProperty(DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY);
        if (deepBackoff != null) {
            b.deepIdleStealBackoffMs(NodeConfig.parseLong(DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY, deepBackoff));
        }
        return b.build();
    }

    private static StealPolicy parsePolicy(final String value) {
        try {
            return StealPolicy.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new DivvyException(STEAL_POLICY_PROPERTY + "=" + value + ", must be RS or CRS");
        }
    }

    /** Host others reach this node at. */
    public String bindHost() {
        return bindHost;
    }

    /** UDP port of this node's endpoint; 0 = ephemeral. */
    public int port() {
        return port;
    }

    /** {@code host:port} of the registry to join, or null when this node hosts it. */
    public String join() {
        return join;
    }

    /** Site (cluster) label. */
    public String site() {
        return site;
    }

    public StealPolicy stealPolicy() {
        return stealPolicy;
    }

    /** Directory of an external media driver, or null for an embedded one. */
    public String aeronDirectory() {
        return aeronDirectory;
    }

    public int termLengthBytes() {
        return termLengthBytes;
    }

    public long heartbeatIntervalMs() {
        return heartbeatIntervalMs;
    }

    public long heartbeatTimeoutMs() {
        return heartbeatTimeoutMs;
    }

    public long joinTimeoutMs() {
        return joinTimeoutMs;
    }

    public long deepIdleAfterMs() {
        return deepIdleAfterMs;
    }

    public long deepIdleParkMs() {
        return deepIdleParkMs;
    }

    /**
     * The park the agent uses in deep idle: {@link #deepIdleParkMs()} but at most the heartbeat interval,
     * since parking longer would make heartbeats late; and at least the 1 ms park while awake.
     */
    public long effectiveDeepIdleParkNs() {
        return Math.max(AWAKE_MAX_PARK_NS,
            TimeUnit.MILLISECONDS.toNanos(Math.min(deepIdleParkMs, heartbeatIntervalMs)));
    }

    public long deepIdleStealBackoffMs() {
        return deepIdleStealBackoffMs;
    }

    /** Peer {@code "host:port"} to the {@code "host:port"} its datagrams go to instead; see {@link TransportSettings#peerRoutes()}. */
    public Map<String, String> peerRoutes() {
        return peerRoutes;
    }


    /** One option per line with its property name, for {@link NodeConfig#describe()}. */
    String describe() {
        return NodeConfig.line(BIND_HOST_PROPERTY, bindHost) +
            NodeConfig.line(PORT_PROPERTY, port == 0 ? "0 (ephemeral)" : port) +
            NodeConfig.line(JOIN_PROPERTY, join == null ? "(none: this node hosts the registry)" : join) +
            NodeConfig.line(SITE_PROPERTY, site) +
            NodeConfig.line(STEAL_POLICY_PROPERTY, stealPolicy) +
            NodeConfig.line(AERON_DIRECTORY_PROPERTY, aeronDirectory == null ? "(embedded driver)" : aeronDirectory) +
            NodeConfig.line(TERM_LENGTH_BYTES_PROPERTY, termLengthBytes) +
            NodeConfig.line(HEARTBEAT_INTERVAL_MS_PROPERTY, heartbeatIntervalMs) +
            NodeConfig.line(HEARTBEAT_TIMEOUT_MS_PROPERTY, heartbeatTimeoutMs) +
            NodeConfig.line(JOIN_TIMEOUT_MS_PROPERTY, joinTimeoutMs) +
            NodeConfig.line(DEEP_IDLE_AFTER_MS_PROPERTY, deepIdleAfterMs) +
            NodeConfig.line(DEEP_IDLE_PARK_MS_PROPERTY, deepIdleParkMs) +
            NodeConfig.line(DEEP_IDLE_STEAL_BACKOFF_MS_PROPERTY, deepIdleStealBackoffMs);
    }

    @Override
    public String toString() {
        return "NetworkConfig{bindHost=" + bindHost + ", port=" + port + ", join=" + join + ", site=" + site +
            ", stealPolicy=" + stealPolicy + ", aeronDirectory=" + aeronDirectory + ", termLengthBytes=" + termLengthBytes +
            ", heartbeatIntervalMs=" + heartbeatIntervalMs + ", heartbeatTimeoutMs=" + heartbeatTimeoutMs +
            ", joinTimeoutMs=" + joinTimeoutMs + ", deepIdleAfterMs=" + deepIdleAfterMs + ", deepIdleParkMs=" + deepIdleParkMs +
            ", deepIdleStealBackoffMs=" + deepIdleStealBackoffMs + ", peerRoutes=" + peerRoutes + '}';
    }

    /** Collects options; {@link #build()} validates them all at once. Not thread-safe. */
    public static final class Builder {
        private String bindHost = DEFAULT_BIND_HOST;
        private int port = DEFAULT_PORT;
        private String join = DEFAULT_JOIN;
        private String site = DEFAULT_SITE;
        private StealPolicy stealPolicy = DEFAULT_STEAL_POLICY;
        private String aeronDirectory = DEFAULT_AERON_DIRECTORY;
        private int termLengthBytes = DEFAULT_TERM_LENGTH_BYTES;
        private long heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
        private long heartbeatTimeoutMs = DEFAULT_HEARTBEAT_TIMEOUT_MS;
        private long joinTimeoutMs = DEFAULT_JOIN_TIMEOUT_MS;
        private long deepIdleAfterMs = DEFAULT_DEEP_IDLE_AFTER_MS;
        private long deepIdleParkMs = DEFAULT_DEEP_IDLE_PARK_MS;
        private long deepIdleStealBackoffMs = DEFAULT_DEEP_IDLE_STEAL_BACKOFF_MS;
        private Map<String, String> peerRoutes = Map.of();

        private Builder() {
        }

        /** See {@link #DEFAULT_BIND_HOST}: a host name or IPv4 address, no port. */
        public Builder bindHost(final String bindHost) {
            this.bindHost = bindHost;
            return this;
        }

        /** See {@link #DEFAULT_PORT}; 0 to 65535. */
        public Builder port(final int port) {
            this.port = port;
            return this;
        }

        /** See {@link #DEFAULT_JOIN}: {@code host:port} of the registry, or null to host it here. */
        public Builder join(final String join) {
            this.join = join;
            return this;
        }

        /** See {@link #DEFAULT_SITE}; non-empty. */
        public Builder site(final String site) {
            this.site = site;
            return this;
        }

        /** See {@link #DEFAULT_STEAL_POLICY}. */
        public Builder stealPolicy(final StealPolicy stealPolicy) {
            this.stealPolicy = stealPolicy;
            return this;
        }

        /** See {@link #DEFAULT_AERON_DIRECTORY}. */
        public Builder aeronDirectory(final String aeronDirectory) {
            this.aeronDirectory = aeronDirectory;
            return this;
        }

        /** See {@link #DEFAULT_TERM_LENGTH_BYTES}; a power of two in [64 KiB, 1 GiB]. */
        public Builder termLengthBytes(final int termLengthBytes) {
            this.termLengthBytes = termLengthBytes;
            return this;
        }

        /** See {@link #DEFAULT_HEARTBEAT_INTERVAL_MS}; >= 1. */
        public Builder heartbeatIntervalMs(final long heartbeatIntervalMs) {
            this.heartbeatIntervalMs = heartbeatIntervalMs;
            return this;
        }

        /** See {@link #DEFAULT_HEARTBEAT_TIMEOUT_MS}; > 2 * heartbeatIntervalMs. */
        public Builder heartbeatTimeoutMs(final long heartbeatTimeoutMs) {
            this.heartbeatTimeoutMs = heartbeatTimeoutMs;
            return this;
        }

        /** See {@link #DEFAULT_JOIN_TIMEOUT_MS}; >= 1. */
        public Builder joinTimeoutMs(final long joinTimeoutMs) {
            this.joinTimeoutMs = joinTimeoutMs;
            return this;
        }

        /** See {@link #DEFAULT_DEEP_IDLE_AFTER_MS}; >= 1. */
        public Builder deepIdleAfterMs(final long deepIdleAfterMs) {
            this.deepIdleAfterMs = deepIdleAfterMs;
            return this;
        }

        /** See {@link #DEFAULT_DEEP_IDLE_PARK_MS}; >= 1, used up to heartbeatIntervalMs (see {@link NetworkConfig#effectiveDeepIdleParkNs()}). */
        public Builder deepIdleParkMs(final long deepIdleParkMs) {
            this.deepIdleParkMs = deepIdleParkMs;
            return this;
        }

        /** See {@link #DEFAULT_DEEP_IDLE_STEAL_BACKOFF_MS}; >= 20 (the cap while awake). */
        public Builder deepIdleStealBackoffMs(final long deepIdleStealBackoffMs) {
            this.deepIdleStealBackoffMs = deepIdleStealBackoffMs;
            return this;
        }

        /**
         * Endpoint rewrites (none by default): datagrams for peer {@code "host:port"} go to the mapped
         * {@code "host:port"} instead, e.g. a WAN relay emulating a wide-area link. Routing only: the peer
         * keeps its own endpoint in membership and statistics.
         */
        public Builder peerRoutes(final Map<String, String> peerRoutes) {
            check(peerRoutes != null, "peerRoutes=null, must be a map (empty for no routes)");
            this.peerRoutes = peerRoutes;
            return this;
        }

        /** Validates every option (through the transport and membership settings too). */
        public NetworkConfig build() {
            check(stealPolicy != null, "stealPolicy=null, must be RS or CRS");
            check(heartbeatIntervalMs >= 1, "heartbeatIntervalMs=" + heartbeatIntervalMs + ", must be >= 1");
            check(heartbeatTimeoutMs > 2 * heartbeatIntervalMs, "heartbeatTimeoutMs=" + heartbeatTimeoutMs +
                ", must be > 2 * heartbeatIntervalMs=" + 2 * heartbeatIntervalMs + " or one lost heartbeat kills a node");
            check(joinTimeoutMs >= 1, "joinTimeoutMs=" + joinTimeoutMs + ", must be >= 1");
            check(deepIdleAfterMs >= 1, "deepIdleAfterMs=" + deepIdleAfterMs + ", must be >= 1");
            check(deepIdleParkMs >= 1, "deepIdleParkMs=" + deepIdleParkMs + ", must be >= 1");
            check(deepIdleStealBackoffMs >= STEAL_BACKOFF_MAX_MS, "deepIdleStealBackoffMs=" + deepIdleStealBackoffMs +
                ", must be >= " + STEAL_BACKOFF_MAX_MS + " (the steal backoff cap while awake)");
            final NetworkConfig config = new NetworkConfig(this);
            TransportSettings.from(config); // validates host, port, term length
            MembershipSettings.from(config); // validates site and join address
            return config;
        }

        private static void check(final boolean valid, final String message) {
            if (!valid) {
                throw new DivvyException(message);
            }
        }
    }
}
