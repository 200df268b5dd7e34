package org.divvy;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;


/**
 * The configuration of one node, immutable (Aeron's {@code MediaDriver.Context}, made immutable): one
 * value for every row of {@link NodeSettings}, the table that declares each setting's name, unit, type,
 * default, check, property and flag. {@link Builder#build()} checks every value once, then the checks
 * across settings; errors name the value and the bound ({@code heartbeatIntervalMs=0, must be > 0}).
 * {@link #fromProperties} is the only reader of {@code divvy.*} properties, {@link #describe()} prints the
 * effective values.
 *
 * <p>A node is single (its workers only, no Aeron) unless {@link Builder#networked(boolean) networked}
 * is true; then it hosts the registry, or joins one with {@link Builder#join(String)}. The network
 * settings ({@link Setting.Scope#NETWORK}) apply only to a networked node, and {@link Builder#build()}
 * rejects one changed on a single node rather than ignore it.
 *
 * <pre>{@code
 * try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(4).build())) { ... }
 *
 * NodeConfig worker = NodeConfig.builder().networked(true).join("10.0.0.5:40123").site("A").build();
 * }</pre>
 */
public final class NodeConfig {
    /** One value per row of {@link NodeSettings#ALL}; null only where a row means "none". */
    private final Map<Setting<?>, Object> values;
    /** Given to {@link Builder#secret}, not a table row: a secret is never a property or a flag. Null: none given. */
    private final ClusterSecret secret;

    private NodeConfig(final Map<Setting<?>, Object> values, final ClusterSecret secret) {
        this.values = values;
        this.secret = secret;
    }

    /** A builder holding every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's values, to derive a changed copy. */
    public Builder toBuilder() {
        final Builder b = new Builder();
        b.values.putAll(values);
        b.secret = secret;
        return b;
    }

    /** The defaults, overridden by every {@code divvy.*} system property that is set; see {@link #fromProperties}. */
    public static NodeConfig fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /**
     * The defaults, overridden by every {@code divvy.<name>} key of {@code properties}
     * ({@link Setting#property()}). Errors name the property: {@code divvy.policy=fastest, must be RS or
     * CRS}; a {@code divvy.*} key that names no setting is an error too, so a misspelt or renamed
     * property is never silently ignored.
     */
    public static NodeConfig fromProperties(final Properties properties) {
        return builder().properties(properties).build();
    }

    /**
     * The properties that give this configuration from the defaults: {@code divvy.<name>} for every
     * setting that differs from its default ({@code fromProperties(c.toProperties())} equals {@code c}),
     * e.g. to start another JVM with the same settings.
     */
    public Properties toProperties() {
        return SettingProperties.of(this);
    }

    /** The value of {@code setting}, in the unit of its name. */
    public <T> T get(final Setting<T> setting) {
        Objects.requireNonNull(setting, "setting");
        return setting.cast(values.get(setting));
    }

    /** Whether {@code setting} has its default value. */
    public boolean isDefault(final Setting<?> setting) {
        return Objects.equals(values.get(setting), setting.defaultValue());
    }

    /** The value of {@code setting} as its property or flag takes it ({@code "none"} for none). */
    public String text(final Setting<?> setting) {
        return textOf(setting);
    }

    private <T> String textOf(final Setting<T> setting) {
        return setting.format(get(setting));
    }

    /** {@link NodeSettings#WORKERS}: worker threads. */
    public int workers() {
        return get(NodeSettings.WORKERS);
    }

    /** {@link NodeSettings#IDLE_SPIN_COUNT}: spin rounds before an idle worker yields. */
    public int idleSpinCount() {
        return get(NodeSettings.IDLE_SPIN_COUNT);
    }

    /** {@link NodeSettings#IDLE_YIELD_COUNT}: yield rounds before an idle worker parks. */
    public int idleYieldCount() {
        return get(NodeSettings.IDLE_YIELD_COUNT);
    }

    /** {@link NodeSettings#IDLE_PARK_MIN_NS}: first park of an idle worker, ns. */
    public long idleParkMinNs() {
        return get(NodeSettings.IDLE_PARK_MIN_NS);
    }

    /** {@link NodeSettings#IDLE_PARK_MAX_NS}: longest park of a recently busy idle worker, ns. */
    public long idleParkMaxNs() {
        return get(NodeSettings.IDLE_PARK_MAX_NS);
    }

    /** {@link NodeSettings#IDLE_DEEP_PARK_NS}: park of a long-idle worker, ns. */
    public long idleDeepParkNs() {
        return get(NodeSettings.IDLE_DEEP_PARK_NS);
    }

    /** {@link NodeSettings#WORKER_STACK_SIZE_BYTES}: stack size of each worker thread, bytes. */
    public long workerStackSizeBytes() {
        return get(NodeSettings.WORKER_STACK_SIZE_BYTES);
    }

    /** {@link NodeSettings#CHECK_CODECS}: whether every spawn and result goes through the codecs (checking mode). */
    public boolean checkCodecs() {
        return get(NodeSettings.CHECK_CODECS);
    }

    /** {@link NodeSettings#SHARED_WRITE_COMBINING_MS}: how long shared-object writes wait to be combined. */
    public long sharedWriteCombiningMs() {
        return get(NodeSettings.SHARED_WRITE_COMBINING_MS);
    }

    /** {@link NodeSettings#GUARD_WAIT_MS}: how long a failed guard waits for late updates. */
    public long guardWaitMs() {
        return get(NodeSettings.GUARD_WAIT_MS);
    }

    /** {@link NodeSettings#GUARD_FETCH}: whether a guard still failing fetches fresh replicas. */
    public boolean guardFetch() {
        return get(NodeSettings.GUARD_FETCH);
    }

    /** {@link NodeSettings#REPLICA_FETCH_TIMEOUT_MS}: how long a replica fetch waits before asking another holder. */
    public long replicaFetchTimeoutMs() {
        return get(NodeSettings.REPLICA_FETCH_TIMEOUT_MS);
    }

    /** {@link NodeSettings#MAX_SHARED_INBOX_BYTES}: bytes of writes from other nodes waiting for a safe point. */
    public long maxSharedInboxBytes() {
        return get(NodeSettings.MAX_SHARED_INBOX_BYTES);
    }

    /** {@link NodeSettings#ORPHAN_SAVING}: whether finished orphans are kept and reused after a crash (false: the naive baseline). */
    public boolean orphanSaving() {
        return get(NodeSettings.ORPHAN_SAVING);
    }

    /** {@link NodeSettings#RESULT_COPY_MIN_MS}: jobs that ran at least this long have their result copied to another site, ms; 0 = off. */
    public long resultCopyMinMs() {
        return get(NodeSettings.RESULT_COPY_MIN_MS);
    }

    /** {@link NodeSettings#NETWORKED}: whether the node joins other nodes; false = a single node. */
    public boolean networked() {
        return get(NodeSettings.NETWORKED);
    }

    /** {@link NodeSettings#BIND}: the host others reach this node at. */
    public String bind() {
        return get(NodeSettings.BIND);
    }

    /** {@link NodeSettings#PORT}: UDP port of the endpoint; 0 = ephemeral. */
    public int port() {
        return get(NodeSettings.PORT);
    }

    /** {@link NodeSettings#JOIN}: {@code host:port} of the registry to join, or null when this node hosts it. */
    public String join() {
        return get(NodeSettings.JOIN);
    }

    /** {@link NodeSettings#SITE}: site (cluster) label. */
    public String site() {
        return get(NodeSettings.SITE);
    }

    /** {@link NodeSettings#POLICY}: the steal policy. */
    public StealPolicy policy() {
        return get(NodeSettings.POLICY);
    }

    /** {@link NodeSettings#AERON_DIRECTORY}: an external media driver's directory, or null for an embedded one. */
    public String aeronDirectory() {
        return get(NodeSettings.AERON_DIRECTORY);
    }

    /** {@link NodeSettings#TERM_LENGTH_BYTES}: Aeron term buffer of each publication, bytes. */
    public int termLengthBytes() {
        return get(NodeSettings.TERM_LENGTH_BYTES);
    }

    /** {@link NodeSettings#MAX_INBOUND_STREAMS}: most streams from peers received at once. */
    public int maxInboundStreams() {
        return get(NodeSettings.MAX_INBOUND_STREAMS);
    }

    /** {@link NodeSettings#MAX_MESSAGE_BYTES}: the largest message sent or taken, bytes. */
    public int maxMessageBytes() {
        return get(NodeSettings.MAX_MESSAGE_BYTES);
    }

    /** {@link NodeSettings#MAX_OUTBOUND_BYTES_PER_PEER}: bytes queued per peer before senders are pushed back. */
    public long maxOutboundBytesPerPeer() {
        return get(NodeSettings.MAX_OUTBOUND_BYTES_PER_PEER);
    }

    /** {@link NodeSettings#MAX_REASSEMBLY_BYTES}: bytes of partly received chunked messages, all peers together. */
    public long maxReassemblyBytes() {
        return get(NodeSettings.MAX_REASSEMBLY_BYTES);
    }

    /** {@link NodeSettings#HEARTBEAT_INTERVAL_MS}: heartbeat period, ms. */
    public long heartbeatIntervalMs() {
        return get(NodeSettings.HEARTBEAT_INTERVAL_MS);
    }

    /** {@link NodeSettings#ACCEPTABLE_HEARTBEAT_PAUSE_MS}: silence the failure detector accepts beyond the rhythm, ms. */
    public long acceptableHeartbeatPauseMs() {
        return get(NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS);
    }

    /** {@link NodeSettings#FAILURE_PHI_THRESHOLD}: phi at which a silent node is suspected. */
    public int failurePhiThreshold() {
        return get(NodeSettings.FAILURE_PHI_THRESHOLD);
    }

    /** {@link NodeSettings#JOIN_TIMEOUT_MS}: how long joining may take, ms. */
    public long joinTimeoutMs() {
        return get(NodeSettings.JOIN_TIMEOUT_MS);
    }

    /** {@link NodeSettings#JOIN_RETRY_INTERVAL_MS}: interval between JOIN retries, ms. */
    public long joinRetryIntervalMs() {
        return get(NodeSettings.JOIN_RETRY_INTERVAL_MS);
    }

    /** {@link NodeSettings#DEEP_IDLE_AFTER_MS}: quiet time before deep idle, ms. */
    public long deepIdleAfterMs() {
        return get(NodeSettings.DEEP_IDLE_AFTER_MS);
    }

    /** {@link NodeSettings#DEEP_IDLE_PARK_MS}: the agent's park per idle cycle in deep idle, ms. */
    public long deepIdleParkMs() {
        return get(NodeSettings.DEEP_IDLE_PARK_MS);
    }

    /** {@link NodeSettings#IDLE_PUBLICATION_CLOSE_MS}: a peer's publication idle this long is closed, ms; 0 never. */
    public long idlePublicationCloseMs() {
        return get(NodeSettings.IDLE_PUBLICATION_CLOSE_MS);
    }

    /** {@link NodeSettings#DEEP_IDLE_RUN_PARK_MS}: the agent's park per idle cycle in deep idle during a run, ms. */
    public long deepIdleRunParkMs() {
        return get(NodeSettings.DEEP_IDLE_RUN_PARK_MS);
    }

    /** {@link NodeSettings#DEEP_IDLE_STEAL_BACKOFF_MS}: longest pause between failed steals in deep idle, ms. */
    public long deepIdleStealBackoffMs() {
        return get(NodeSettings.DEEP_IDLE_STEAL_BACKOFF_MS);
    }

    /** {@link NodeSettings#DEEP_IDLE_VICTIM_HOLD_MS}: longest time a deep-idle node keeps one steal victim, ms (0: none). */
    public long deepIdleVictimHoldMs() {
        return get(NodeSettings.DEEP_IDLE_VICTIM_HOLD_MS);
    }

    /** {@link NodeSettings#PEER_ROUTES}: peer {@code host:port} to the {@code host:port} its datagrams go to. */
    public Map<String, String> peerRoutes() {
        return get(NodeSettings.PEER_ROUTES);
    }

    /** {@link NodeSettings#SECRET_FILE}: the file holding the cluster secret, or null. */
    public String secretFile() {
        return get(NodeSettings.SECRET_FILE);
    }

    /**
     * The cluster secret this node authenticates its frames with: the one {@linkplain Builder#secret given},
     * else the content of {@link #secretFile()}, else {@code $DIVVY_SECRET}; null if there is none (a networked
     * node then refuses to start). Read when called, so a file's error surfaces when the node starts.
     */
    public ClusterSecret clusterSecret() {
        if (secret != null) {
            return secret;
        }
        final String file = secretFile();
        return file != null ? ClusterSecret.fromFile(java.nio.file.Path.of(file)) : ClusterSecret.fromEnvironment();
    }

    /** The error a networked node without a secret ends with: what to set. */
    public static String missingSecretMessage() {
        return "no cluster secret: set the environment variable " + ClusterSecret.ENVIRONMENT_VARIABLE +
            " (the same value on every node of the run, at least " + ClusterSecret.MIN_BYTES + " bytes) or " +
            NodeSettings.SECRET_FILE.flag() + " FILE (" + NodeSettings.SECRET_FILE.property() +
            "); `divvy run` makes one for the nodes it starts";
    }

    /**
     * The park the network agent uses in deep idle, in ns: {@link #deepIdleParkMs()}, but at most the
     * heartbeat interval, since parking longer would make heartbeats late. Both are whole milliseconds,
     * so it is never shorter than the agent's 1 ms park while awake, as the agent requires.
     */
    public long effectiveDeepIdleParkNs() {
        return TimeUnit.MILLISECONDS.toNanos(Math.min(deepIdleParkMs(), heartbeatIntervalMs()));
    }

    /**
     * The park the network agent uses in deep idle while a run this node belongs to is active, in ns:
     * {@link #deepIdleRunParkMs()}, but at most {@link #effectiveDeepIdleParkNs()}; whole milliseconds, so never
     * shorter than the agent's 1 ms park while awake.
     */
    public long effectiveDeepIdleRunParkNs() {
        return Math.min(TimeUnit.MILLISECONDS.toNanos(deepIdleRunParkMs()), effectiveDeepIdleParkNs());
    }

    /**
     * The effective configuration, one setting per line: name, value, and the default where the value
     * differs. A single node lists its network settings as unused.
     */
    public String describe() {
        final StringBuilder text = new StringBuilder("Divvy node configuration (")
            .append(networked() ? "networked" : "single node").append(")\n");
        for (final Setting<?> setting : NodeSettings.ALL) {
            if (setting.scope() == Setting.Scope.NETWORK && !networked()) {
                continue;
            }
            text.append(String.format("  %-24s %s%s%n", setting.name(), text(setting),
                isDefault(setting) ? "" : "   (default " + setting.defaultText() + ")"));
        }
        if (!networked()) {
            text.append("  (network settings unused: networked=false)\n");
        }
        return text.toString();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof NodeConfig other && values.equals(other.values) && Objects.equals(secret, other.secret);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        final StringBuilder text = new StringBuilder("NodeConfig{");
        for (final Setting<?> setting : NodeSettings.ALL) {
            text.append(setting == NodeSettings.ALL.get(0) ? "" : ", ").append(setting.name()).append('=').append(text(setting));
        }
        return text.append('}').toString();
    }

    /**
     * Collects values, each set by its typed method (named like the setting), by {@link #set} or by
     * {@link #properties}; {@link #build()} checks them all at once. Not thread-safe.
     */
    public static final class Builder {
        /** Every row's value; starts as the defaults. A HashMap, since "none" values are null. */
        private final Map<Setting<?>, Object> values = new HashMap<>();
        private ClusterSecret secret;

        private Builder() {
            for (final Setting<?> setting : NodeSettings.ALL) {
                values.put(setting, setting.defaultValue());
            }
        }

        /** Sets {@code setting} to {@code value}, checked by {@link #build()}. */
        public <T> Builder set(final Setting<T> setting, final T value) {
            Objects.requireNonNull(setting, "setting");
            values.put(setting, value);
            return this;
        }

        /**
         * Sets every setting whose property ({@code divvy.<name>}) is a key of {@code properties}, parsing
         * and checking it at once, so an error names the property. A {@code divvy.*} key that names no
         * setting is an error (it would otherwise be ignored without a word).
         */
        public Builder properties(final Properties properties) {
            SettingProperties.read(properties, this);
            return this;
        }

        /**
         * The cluster secret, given in code (in-process nodes, tests); otherwise it is read from
         * {@link NodeSettings#SECRET_FILE} or {@code $DIVVY_SECRET}. Null: none given.
         */
        public Builder secret(final ClusterSecret secret) {
            this.secret = secret;
            return this;
        }

        /** {@link NodeSettings#SECRET_FILE}: a file holding the cluster secret; null: none. */
        public Builder secretFile(final String secretFile) {
            return set(NodeSettings.SECRET_FILE, secretFile);
        }

        /** {@link NodeSettings#WORKERS}: 1 to 1024. */
        public Builder workers(final int workers) {
            return set(NodeSettings.WORKERS, workers);
        }

        /** {@link NodeSettings#IDLE_SPIN_COUNT}: >= 0. */
        public Builder idleSpinCount(final int idleSpinCount) {
            return set(NodeSettings.IDLE_SPIN_COUNT, idleSpinCount);
        }

        /** {@link NodeSettings#IDLE_YIELD_COUNT}: >= 0. */
        public Builder idleYieldCount(final int idleYieldCount) {
            return set(NodeSettings.IDLE_YIELD_COUNT, idleYieldCount);
        }

        /** {@link NodeSettings#IDLE_PARK_MIN_NS}: 1 ns to 1 s. */
        public Builder idleParkMinNs(final long idleParkMinNs) {
            return set(NodeSettings.IDLE_PARK_MIN_NS, idleParkMinNs);
        }

        /** {@link NodeSettings#IDLE_PARK_MAX_NS}: idleParkMinNs to 1 s. */
        public Builder idleParkMaxNs(final long idleParkMaxNs) {
            return set(NodeSettings.IDLE_PARK_MAX_NS, idleParkMaxNs);
        }

        /** {@link NodeSettings#IDLE_DEEP_PARK_NS}: idleParkMaxNs to 1 s. */
        public Builder idleDeepParkNs(final long idleDeepParkNs) {
            return set(NodeSettings.IDLE_DEEP_PARK_NS, idleDeepParkNs);
        }

        /** {@link NodeSettings#WORKER_STACK_SIZE_BYTES}: >= 64 KiB. */
        public Builder workerStackSizeBytes(final long workerStackSizeBytes) {
            return set(NodeSettings.WORKER_STACK_SIZE_BYTES, workerStackSizeBytes);
        }

        /** {@link NodeSettings#CHECK_CODECS}: true to send every spawn and result through the codecs on this node. */
        public Builder checkCodecs(final boolean checkCodecs) {
            return set(NodeSettings.CHECK_CODECS, checkCodecs);
        }

        /** {@link NodeSettings#SHARED_WRITE_COMBINING_MS}: >= 0 (0 sends at once). */
        public Builder sharedWriteCombiningMs(final long delayMs) {
            return set(NodeSettings.SHARED_WRITE_COMBINING_MS, delayMs);
        }

        /** {@link NodeSettings#GUARD_WAIT_MS}: >= 0. */
        public Builder guardWaitMs(final long waitMs) {
            return set(NodeSettings.GUARD_WAIT_MS, waitMs);
        }

        /** {@link NodeSettings#GUARD_FETCH}: false to run a job whose guard fails on the replicas at hand. */
        public Builder guardFetch(final boolean fetch) {
            return set(NodeSettings.GUARD_FETCH, fetch);
        }

        /** {@link NodeSettings#REPLICA_FETCH_TIMEOUT_MS}: > 0. */
        public Builder replicaFetchTimeoutMs(final long timeoutMs) {
            return set(NodeSettings.REPLICA_FETCH_TIMEOUT_MS, timeoutMs);
        }

        /** {@link NodeSettings#MAX_SHARED_INBOX_BYTES}: at least 64 KiB. */
        public Builder maxSharedInboxBytes(final long maxBytes) {
            return set(NodeSettings.MAX_SHARED_INBOX_BYTES, maxBytes);
        }

        /** {@link NodeSettings#RESULT_COPY_MIN_MS}: >= 0 (0 = off). */
        public Builder resultCopyMinMs(final long resultCopyMinMs) {
            return set(NodeSettings.RESULT_COPY_MIN_MS, resultCopyMinMs);
        }

        /** {@link NodeSettings#ORPHAN_SAVING}: false to discard orphaned work after a crash (the naive baseline). */
        public Builder orphanSaving(final boolean orphanSaving) {
            return set(NodeSettings.ORPHAN_SAVING, orphanSaving);
        }

        /** {@link NodeSettings#NETWORKED}: true to join other nodes; the network settings need it. */
        public Builder networked(final boolean networked) {
            return set(NodeSettings.NETWORKED, networked);
        }

        /** {@link NodeSettings#BIND}: a host name or IPv4 address, no port. */
        public Builder bind(final String bind) {
            return set(NodeSettings.BIND, bind);
        }

        /** {@link NodeSettings#PORT}: 0 to 65535, 0 = ephemeral. */
        public Builder port(final int port) {
            return set(NodeSettings.PORT, port);
        }

        /** {@link NodeSettings#JOIN}: {@code host:port} of the registry, or null to host it here. */
        public Builder join(final String join) {
            return set(NodeSettings.JOIN, join);
        }

        /** {@link NodeSettings#SITE}: 1 to 64 letters, digits, '-', '_' or '.'. */
        public Builder site(final String site) {
            return set(NodeSettings.SITE, site);
        }

        /** {@link NodeSettings#POLICY}: RS, CRS or LCRS. */
        public Builder policy(final StealPolicy policy) {
            return set(NodeSettings.POLICY, policy);
        }

        /** {@link NodeSettings#AERON_DIRECTORY}: an external driver's directory, or null to embed one. */
        public Builder aeronDirectory(final String aeronDirectory) {
            return set(NodeSettings.AERON_DIRECTORY, aeronDirectory);
        }

        /** {@link NodeSettings#TERM_LENGTH_BYTES}: a power of two in [64 KiB, 1 GiB]. */
        public Builder termLengthBytes(final int termLengthBytes) {
            return set(NodeSettings.TERM_LENGTH_BYTES, termLengthBytes);
        }

        /** {@link NodeSettings#MAX_INBOUND_STREAMS}: in [1, 2^20]. */
        public Builder maxInboundStreams(final int maxInboundStreams) {
            return set(NodeSettings.MAX_INBOUND_STREAMS, maxInboundStreams);
        }

        /** {@link NodeSettings#MAX_MESSAGE_BYTES}: in [64 KiB, 2047 MiB]. */
        public Builder maxMessageBytes(final int maxMessageBytes) {
            return set(NodeSettings.MAX_MESSAGE_BYTES, maxMessageBytes);
        }

        /** {@link NodeSettings#MAX_OUTBOUND_BYTES_PER_PEER}: at least maxMessageBytes. */
        public Builder maxOutboundBytesPerPeer(final long maxOutboundBytesPerPeer) {
            return set(NodeSettings.MAX_OUTBOUND_BYTES_PER_PEER, maxOutboundBytesPerPeer);
        }

        /** {@link NodeSettings#MAX_REASSEMBLY_BYTES}: at least maxMessageBytes. */
        public Builder maxReassemblyBytes(final long maxReassemblyBytes) {
            return set(NodeSettings.MAX_REASSEMBLY_BYTES, maxReassemblyBytes);
        }

        /** {@link NodeSettings#HEARTBEAT_INTERVAL_MS}: > 0. */
        public Builder heartbeatIntervalMs(final long heartbeatIntervalMs) {
            return set(NodeSettings.HEARTBEAT_INTERVAL_MS, heartbeatIntervalMs);
        }

        /** {@link NodeSettings#ACCEPTABLE_HEARTBEAT_PAUSE_MS}: > 2 * heartbeatIntervalMs. */
        public Builder acceptableHeartbeatPauseMs(final long acceptableHeartbeatPauseMs) {
            return set(NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS, acceptableHeartbeatPauseMs);
        }

        /** {@link NodeSettings#FAILURE_PHI_THRESHOLD}: in [1, 100]. */
        public Builder failurePhiThreshold(final int failurePhiThreshold) {
            return set(NodeSettings.FAILURE_PHI_THRESHOLD, failurePhiThreshold);
        }

        /** {@link NodeSettings#JOIN_TIMEOUT_MS}: > 0. */
        public Builder joinTimeoutMs(final long joinTimeoutMs) {
            return set(NodeSettings.JOIN_TIMEOUT_MS, joinTimeoutMs);
        }

        /** {@link NodeSettings#JOIN_RETRY_INTERVAL_MS}: > 0, used up to joinTimeoutMs. */
        public Builder joinRetryIntervalMs(final long joinRetryIntervalMs) {
            return set(NodeSettings.JOIN_RETRY_INTERVAL_MS, joinRetryIntervalMs);
        }

        /** {@link NodeSettings#DEEP_IDLE_AFTER_MS}: > 0. */
        public Builder deepIdleAfterMs(final long deepIdleAfterMs) {
            return set(NodeSettings.DEEP_IDLE_AFTER_MS, deepIdleAfterMs);
        }

        /** {@link NodeSettings#DEEP_IDLE_PARK_MS}: > 0, used up to heartbeatIntervalMs. */
        public Builder deepIdleParkMs(final long deepIdleParkMs) {
            return set(NodeSettings.DEEP_IDLE_PARK_MS, deepIdleParkMs);
        }

        /** {@link NodeSettings#DEEP_IDLE_RUN_PARK_MS}: > 0, used up to the deep-idle park. */
        public Builder deepIdleRunParkMs(final long deepIdleRunParkMs) {
            return set(NodeSettings.DEEP_IDLE_RUN_PARK_MS, deepIdleRunParkMs);
        }

        /** {@link NodeSettings#IDLE_PUBLICATION_CLOSE_MS}: >= 0, 0 never. */
        public Builder idlePublicationCloseMs(final long idlePublicationCloseMs) {
            return set(NodeSettings.IDLE_PUBLICATION_CLOSE_MS, idlePublicationCloseMs);
        }

        /** {@link NodeSettings#DEEP_IDLE_STEAL_BACKOFF_MS}: >= 20, the cap while awake. */
        public Builder deepIdleStealBackoffMs(final long deepIdleStealBackoffMs) {
            return set(NodeSettings.DEEP_IDLE_STEAL_BACKOFF_MS, deepIdleStealBackoffMs);
        }

        /** {@link NodeSettings#DEEP_IDLE_VICTIM_HOLD_MS}: >= 0, 0 = a new victim for every request. */
        public Builder deepIdleVictimHoldMs(final long deepIdleVictimHoldMs) {
            return set(NodeSettings.DEEP_IDLE_VICTIM_HOLD_MS, deepIdleVictimHoldMs);
        }

        /** {@link NodeSettings#PEER_ROUTES}: peer {@code host:port} to {@code host:port}; empty for none. */
        public Builder peerRoutes(final Map<String, String> peerRoutes) {
            return set(NodeSettings.PEER_ROUTES, peerRoutes);
        }

        /**
         * Checks every value against its row, then the rules across rows, and returns the immutable
         * configuration. Throws {@link DivvyException} naming the first value that breaks a bound.
         */
        public NodeConfig build() {
            for (final Setting<?> setting : NodeSettings.ALL) {
                check(setting);
            }
            final Map<Setting<?>, Object> copy = new HashMap<>();
            // a map value is copied, so a caller's later change cannot reach the immutable configuration
            values.forEach((setting, value) -> copy.put(setting, value instanceof Map<?, ?> m ? Map.copyOf(m) : value));
            final NodeConfig config = new NodeConfig(Collections.unmodifiableMap(copy), secret);
            checkAcross(config);
            return config;
        }

        private <T> void check(final Setting<T> setting) {
            setting.check(setting.cast(values.get(setting)), setting.name());
        }

        /** The rules no single row can check. */
        private static void checkAcross(final NodeConfig c) {
            require(c.idleParkMaxNs() >= c.idleParkMinNs(),
                "idleParkMaxNs=" + c.idleParkMaxNs() + ", must be >= idleParkMinNs=" + c.idleParkMinNs());
            require(c.idleDeepParkNs() >= c.idleParkMaxNs(),
                "idleDeepParkNs=" + c.idleDeepParkNs() + ", must be >= idleParkMaxNs=" + c.idleParkMaxNs());
            require(c.acceptableHeartbeatPauseMs() > 2 * c.heartbeatIntervalMs(), "acceptableHeartbeatPauseMs=" +
                c.acceptableHeartbeatPauseMs() + ", must be > 2 * heartbeatIntervalMs=" + 2 * c.heartbeatIntervalMs() +
                " or one lost heartbeat kills a node");
            require(c.maxOutboundBytesPerPeer() >= c.maxMessageBytes(), "maxOutboundBytesPerPeer=" +
                c.maxOutboundBytesPerPeer() + ", must be >= maxMessageBytes=" + c.maxMessageBytes() +
                " so that one largest message fits a peer's queue");
            require(c.maxReassemblyBytes() >= c.maxMessageBytes(), "maxReassemblyBytes=" + c.maxReassemblyBytes() +
                ", must be >= maxMessageBytes=" + c.maxMessageBytes() + " so that one largest message can be received");
            if (!c.networked()) {
                for (final Setting<?> setting : NodeSettings.ALL) {
                    require(setting.scope() != Setting.Scope.NETWORK || c.isDefault(setting), setting.name() + "=" +
                        c.text(setting) + " is a network setting, but networked=false: set networked=true (" +
                        NodeSettings.NETWORKED.property() + ", " + NodeSettings.NETWORKED.flag() + ") or leave " +
                        setting.name() + " at its default " + setting.defaultText());
                }
            }
        }

        private static void require(final boolean valid, final String message) {
            if (!valid) {
                throw new DivvyException(message);
            }
        }
    }
}
