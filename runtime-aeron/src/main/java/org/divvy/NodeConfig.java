package org.divvy;

import java.util.Properties;

/**
 * The configuration of one node, immutable (Aeron's {@code MediaDriver.Context}, made immutable).
 * {@link Builder#build()} validates every value once; errors name the value and its bound. Each option
 * has one {@code DEFAULT_} constant and one system property, read only by {@link #fromSystemProperties()}.
 *
 * <pre>{@code
 * try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(4).build())) { ... }
 * }</pre>
 */
public final class NodeConfig {
    /**
     * Default number of worker threads: one per available processor, since workers are CPU-bound and
     * never block on I/O. Property {@value #WORKERS_PROPERTY}.
     */
    public static final int DEFAULT_WORKERS = Runtime.getRuntime().availableProcessors();

    /** Property for {@link Builder#workers(int)}. */
    public static final String WORKERS_PROPERTY = "divvy.workers";

    /**
     * Default number of busy-spin rounds ({@link Thread#onSpinWait()}) an idle worker makes before
     * yielding: work usually reappears within microseconds while a computation runs, and a spin reacts
     * fastest. Property {@value #IDLE_SPIN_COUNT_PROPERTY}.
     */
    public static final int DEFAULT_IDLE_SPIN_COUNT = 100;

    /** Property for {@link Builder#idleSpinCount(int)}. */
    public static final String IDLE_SPIN_COUNT_PROPERTY = "divvy.idle.spinCount";

    /**
     * Default number of {@link Thread#yield()} rounds after spinning and before parking: gives a core
     * to another runnable thread on a busy machine without sleeping yet.
     * Property {@value #IDLE_YIELD_COUNT_PROPERTY}.
     */
    public static final int DEFAULT_IDLE_YIELD_COUNT = 10;

    /** Property for {@link Builder#idleYieldCount(int)}. */
    public static final String IDLE_YIELD_COUNT_PROPERTY = "divvy.idle.yieldCount";

    /**
     * Default first park time of an idle worker, in nanoseconds (1 µs); each further park doubles it
     * up to {@link #DEFAULT_IDLE_PARK_MAX_NS}. A spawn wakes a parked worker at once; the timeout only
     * bounds how stale an idle worker's view can get. Property {@value #IDLE_PARK_MIN_NS_PROPERTY}.
     */
    public static final long DEFAULT_IDLE_PARK_MIN_NS = 1_000L;

    /** Property for {@link Builder#idleParkMinNs(long)}. */
    public static final String IDLE_PARK_MIN_NS_PROPERTY = "divvy.idle.parkMinNs";

    /**
     * Default longest park time of an idle worker, in nanoseconds (1 ms): long enough that an idle node
     * costs well under 1% of a core, short enough that a missed wake-up costs at most a millisecond.
     * Property {@value #IDLE_PARK_MAX_NS_PROPERTY}.
     */
    public static final long DEFAULT_IDLE_PARK_MAX_NS = 1_000_000L;

    /** Property for {@link Builder#idleParkMaxNs(long)}. */
    public static final String IDLE_PARK_MAX_NS_PROPERTY = "divvy.idle.parkMaxNs";

    /**
     * Default park time of a worker that has been idle for about 100 parks at the maximum, in
     * nanoseconds (50 ms): an idle node then costs next to nothing. A spawn or a new run wakes it at
     * once; only in a rare race (a spawn publishes its job without a fence) can a worker that was
     * already idle that long oversleep, by at most this time. Property {@value #IDLE_DEEP_PARK_NS_PROPERTY}.
     */
    public static final long DEFAULT_IDLE_DEEP_PARK_NS = 50_000_000L;

    /** Property for {@link Builder#idleDeepParkNs(long)}. */
    public static final String IDLE_DEEP_PARK_NS_PROPERTY = "divvy.idle.deepParkNs";

    /**
     * Default stack size of a worker thread, in bytes (16 MiB): a worker runs deep recursions, and a
     * worker waiting in {@code sync()} runs other jobs on top of its stack, so nesting goes deeper than
     * the sequential program's. Property {@value #WORKER_STACK_SIZE_BYTES_PROPERTY}.
     */
    public static final long DEFAULT_WORKER_STACK_SIZE_BYTES = 16L * 1024 * 1024;

    /** Property for {@link Builder#workerStackSizeBytes(long)}. */
    public static final String WORKER_STACK_SIZE_BYTES_PROPERTY = "divvy.worker.stackSizeBytes";

    /** Bounds checked by {@link Builder#build()}. */
    public static final int MAX_WORKERS = 1024;
    public static final long MIN_WORKER_STACK_SIZE_BYTES = 64L * 1024;

    private final int workers;
    private final int idleSpinCount;
    private final int idleYieldCount;
    private final long idleParkMinNs;
    private final long idleParkMaxNs;
    private final long idleDeepParkNs;
    private final long workerStackSizeBytes;
    private final NetworkConfig network;

    private NodeConfig(final Builder b) {
        workers = b.workers;
        idleSpinCount = b.idleSpinCount;
        idleYieldCount = b.idleYieldCount;
        idleParkMinNs = b.idleParkMinNs;
        idleParkMaxNs = b.idleParkMaxNs;
        idleDeepParkNs = b.idleDeepParkNs;
        workerStackSizeBytes = b.workerStackSizeBytes;
        network = b.network;
    }

    /** A builder holding every default. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's values, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder()
            .workers(workers)
            .idleSpinCount(idleSpinCount)
            .idleYieldCount(idleYieldCount)
            .idleParkMinNs(idleParkMinNs)
            .idleParkMaxNs(idleParkMaxNs)
            .idleDeepParkNs(idleDeepParkNs)
            .workerStackSizeBytes(workerStackSizeBytes)
            .network(network);
    }

    /** The defaults, overridden by any {@code divvy.*} system property that is set. */
    public static NodeConfig fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /** The defaults, overridden by any {@code divvy.*} key present in {@code properties}. */
    public static NodeConfig fromProperties(final Properties properties) {
        final Builder b = builder();
        final String workers = properties.getProperty(WORKERS_PROPERTY);
        if (workers != null) {
            b.workers(parseInt(WORKERS_PROPERTY, workers));
        }
        final String spin = properties.getProperty(IDLE_SPIN_COUNT_PROPERTY);
        if (spin != null) {
            b.idleSpinCount(parseInt(IDLE_SPIN_COUNT_PROPERTY, spin));
        }
        final String yield = properties.getProperty(IDLE_YIELD_COUNT_PROPERTY);
        if (yield != null) {
            b.idleYieldCount(parseInt(IDLE_YIELD_COUNT_PROPERTY, yield));
        }
        final String parkMin = properties.getProperty(IDLE_PARK_MIN_NS_PROPERTY);
        if (parkMin != null) {
            b.idleParkMinNs(parseLong(IDLE_PARK_MIN_NS_PROPERTY, parkMin));
        }
        final String parkMax = properties.getProperty(IDLE_PARK_MAX_NS_PROPERTY);
        if (parkMax != null) {
            b.idleParkMaxNs(parseLong(IDLE_PARK_MAX_NS_PROPERTY, parkMax));
        }
        final String deepPark = properties.getProperty(IDLE_DEEP_PARK_NS_PROPERTY);
        if (deepPark != null) {
            b.idleDeepParkNs(parseLong(IDLE_DEEP_PARK_NS_PROPERTY, deepPark));
        }
        final String stack = properties.getProperty(WORKER_STACK_SIZE_BYTES_PROPERTY);
        if (stack != null) {
            b.workerStackSizeBytes(parseLong(WORKER_STACK_SIZE_BYTES_PROPERTY, stack));
        }
        if (NetworkConfig.anyPresent(properties)) {
            b.network(NetworkConfig.fromProperties(properties));
        }
        return b.build();
    }

    /** Number of worker threads. */
    public int workers() {
        return workers;
    }

    /** Spin rounds before an idle worker yields. */
    public int idleSpinCount() {
        return idleSpinCount;
    }

    /** Yield rounds before an idle worker parks. */
    public int idleYieldCount() {
        return idleYieldCount;
    }

    /** First park time of an idle worker, ns. */
    public long idleParkMinNs() {
        return idleParkMinNs;
    }

    /** Longest park time of an idle worker, ns. */
    public long idleParkMaxNs() {
        return idleParkMaxNs;
    }

    /** Park time of a long-idle worker, ns. */
    public long idleDeepParkNs() {
        return idleDeepParkNs;
    }

    /** Stack size of each worker thread, bytes. */
    public long workerStackSizeBytes() {
        return workerStackSizeBytes;
    }

    /**
     * How this node joins other nodes, or null for a single node without networking (no Aeron, no
     * threads beyond the workers).
     */
    public NetworkConfig network() {
        return network;
    }

    /** The effective configuration, one option per line with its property name. */
    public String describe() {
        return "Divvy node configuration\n" +
            line(WORKERS_PROPERTY, workers) +
            line(IDLE_SPIN_COUNT_PROPERTY, idleSpinCount) +
            line(IDLE_YIELD_COUNT_PROPERTY, idleYieldCount) +
            line(IDLE_PARK_MIN_NS_PROPERTY, idleParkMinNs) +
            line(IDLE_PARK_MAX_NS_PROPERTY, idleParkMaxNs) +
            line(IDLE_DEEP_PARK_NS_PROPERTY, idleDeepParkNs) +
            line(WORKER_STACK_SIZE_BYTES_PROPERTY, workerStackSizeBytes) +
            (network == null ? "  network                        (none: single node)\n" : network.describe());
    }

    @Override
    public String toString() {
        return "NodeConfig{workers=" + workers +
            ", idleSpinCount=" + idleSpinCount +
            ", idleYieldCount=" + idleYieldCount +
            ", idleParkMinNs=" + idleParkMinNs +
            ", idleParkMaxNs=" + idleParkMaxNs +
            ", idleDeepParkNs=" + idleDeepParkNs +
            ", workerStackSizeBytes=" + workerStackSizeBytes +
            ", network=" + network + '}';
    }

    static String line(final String name, final Object value) {
        return String.format("  %-30s %s%n", name, value);
    }

    static int parseInt(final String name, final String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (final NumberFormatException e) {
            throw new DivvyException(name + "=" + value + ", must be an integer");
        }
    }

    static long parseLong(final String name, final String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (final NumberFormatException e) {
            throw new DivvyException(name + "=" + value + ", must be an integer");
        }
    }

    /** Collects options; {@link #build()} validates them all at once. Not thread-safe. */
    public static final class Builder {
        private int workers = DEFAULT_WORKERS;
        private int idleSpinCount = DEFAULT_IDLE_SPIN_COUNT;
        private int idleYieldCount = DEFAULT_IDLE_YIELD_COUNT;
        private long idleParkMinNs = DEFAULT_IDLE_PARK_MIN_NS;
        private long idleParkMaxNs = DEFAULT_IDLE_PARK_MAX_NS;
        private long idleDeepParkNs = DEFAULT_IDLE_DEEP_PARK_NS;
        private long workerStackSizeBytes = DEFAULT_WORKER_STACK_SIZE_BYTES;
        private NetworkConfig network;

        private Builder() {
        }

        /**
         * Makes the node join other nodes over Aeron; null (the default) keeps it a single node. Set by
         * {@link #fromProperties} when any network property ({@code divvy.join}, {@code divvy.site},
         * {@code divvy.policy}, ...) is present.
         */
        public Builder network(final NetworkConfig network) {
            this.network = network;
            return this;
        }

        /** See {@link #DEFAULT_WORKERS}; 1 to {@value #MAX_WORKERS}. */
        public Builder workers(final int workers) {
            this.workers = workers;
            return this;
        }

        /** See {@link #DEFAULT_IDLE_SPIN_COUNT}; >= 0. */
        public Builder idleSpinCount(final int idleSpinCount) {
            this.idleSpinCount = idleSpinCount;
            return this;
        }

        /** See {@link #DEFAULT_IDLE_YIELD_COUNT}; >= 0. */
        public Builder idleYieldCount(final int idleYieldCount) {
            this.idleYieldCount = idleYieldCount;
            return this;
        }

        /** See {@link #DEFAULT_IDLE_PARK_MIN_NS}; >= 1. */
        public Builder idleParkMinNs(final long idleParkMinNs) {
            this.idleParkMinNs = idleParkMinNs;
            return this;
        }

        /** See {@link #DEFAULT_IDLE_PARK_MAX_NS}; >= idleParkMinNs and <= 1 s. */
        public Builder idleParkMaxNs(final long idleParkMaxNs) {
            this.idleParkMaxNs = idleParkMaxNs;
            return this;
        }

        /** See {@link #DEFAULT_IDLE_DEEP_PARK_NS}; >= idleParkMaxNs and <= 1 s. */
        public Builder idleDeepParkNs(final long idleDeepParkNs) {
            this.idleDeepParkNs = idleDeepParkNs;
            return this;
        }

        /** See {@link #DEFAULT_WORKER_STACK_SIZE_BYTES}; >= {@value #MIN_WORKER_STACK_SIZE_BYTES}. */
        public Builder workerStackSizeBytes(final long workerStackSizeBytes) {
            this.workerStackSizeBytes = workerStackSizeBytes;
            return this;
        }

        /** Validates every option and returns the immutable configuration. */
        public NodeConfig build() {
            check(workers >= 1, "workers=" + workers + ", must be >= 1");
            check(workers <= MAX_WORKERS, "workers=" + workers + ", must be <= " + MAX_WORKERS);
            check(idleSpinCount >= 0, "idleSpinCount=" + idleSpinCount + ", must be >= 0");
            check(idleYieldCount >= 0, "idleYieldCount=" + idleYieldCount + ", must be >= 0");
            check(idleParkMinNs >= 1, "idleParkMinNs=" + idleParkMinNs + ", must be >= 1");
            check(idleParkMaxNs >= idleParkMinNs,
                "idleParkMaxNs=" + idleParkMaxNs + ", must be >= idleParkMinNs=" + idleParkMinNs);
            check(idleParkMaxNs <= 1_000_000_000L, "idleParkMaxNs=" + idleParkMaxNs + ", must be <= 1000000000 (1 s)");
            check(idleDeepParkNs >= idleParkMaxNs,
                "idleDeepParkNs=" + idleDeepParkNs + ", must be >= idleParkMaxNs=" + idleParkMaxNs);
            check(idleDeepParkNs <= 1_000_000_000L, "idleDeepParkNs=" + idleDeepParkNs + ", must be <= 1000000000 (1 s)");
            check(workerStackSizeBytes >= MIN_WORKER_STACK_SIZE_BYTES,
                "workerStackSizeBytes=" + workerStackSizeBytes + ", must be >= " + MIN_WORKER_STACK_SIZE_BYTES);
            return new NodeConfig(this);
        }

        private static void check(final boolean valid, final String message) {
            if (!valid) {
                throw new DivvyException(message);
            }
        }
    }
}
