package org.divvy.perf.wan;

import java.util.concurrent.TimeUnit;

/**
 * The impairments of one direction of an emulated wide-area link. Immutable; {@link Builder#build()}
 * validates every value. The defaults describe a perfect link (no delay, no cap, no loss).
 *
 * <p>A datagram that survives the loss draw passes the bandwidth shaper (FIFO, token bucket), then
 * travels for {@code oneWayDelayNs} plus a uniform jitter in {@code [-jitterNs, +jitterNs]}. A link does
 * not reorder: a datagram never leaves before one that arrived earlier on the same direction, so jitter
 * stretches gaps but keeps order (as a real path mostly does, and as TCP-friendly emulators default to).
 */
public final class WanLinkConfig {
    /** Default one-way delay: none. */
    public static final long DEFAULT_ONE_WAY_DELAY_NS = 0;
    /** Default jitter: none. */
    public static final long DEFAULT_JITTER_NS = 0;
    /** Default bandwidth cap: 0 means unlimited. */
    public static final long DEFAULT_BANDWIDTH_BYTES_PER_SECOND = 0;
    /**
     * Default token-bucket depth: 64 KiB, one maximal UDP datagram, so a burst of small datagrams passes
     * at line rate and a single large one is never held back more than its own serialisation time.
     */
    public static final int DEFAULT_BURST_BYTES = 64 * 1024;
    /**
     * Default limit of bytes waiting in the shaper before tail drop: 1 MiB, a router buffer of about
     * 80 ms at 100 Mbit/s. Only matters with a bandwidth cap.
     */
    public static final int DEFAULT_QUEUE_LIMIT_BYTES = 1024 * 1024;
    /** Default loss probability per datagram: none. */
    public static final double DEFAULT_LOSS_RATE = 0.0;
    /** Default seed of the loss and jitter draws: fixed, so a run can be repeated exactly. */
    public static final long DEFAULT_SEED = 42;

    private final long oneWayDelayNs;
    private final long jitterNs;
    private final long bandwidthBytesPerSecond;
    private final int burstBytes;
    private final int queueLimitBytes;
    private final double lossRate;
    private final long seed;

    private WanLinkConfig(final Builder builder) {
        oneWayDelayNs = builder.oneWayDelayNs;
        jitterNs = builder.jitterNs;
        bandwidthBytesPerSecond = builder.bandwidthBytesPerSecond;
        burstBytes = builder.burstBytes;
        queueLimitBytes = builder.queueLimitBytes;
        lossRate = builder.lossRate;
        seed = builder.seed;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A perfect link: forwards everything at once. */
    public static WanLinkConfig perfect() {
        return builder().build();
    }

    /** Mean one-way propagation delay added to every datagram. */
    public long oneWayDelayNs() {
        return oneWayDelayNs;
    }

    /** Half-width of the uniform jitter around the delay; at most the delay, so no datagram travels back in time. */
    public long jitterNs() {
        return jitterNs;
    }

    /** Bandwidth cap in bytes per second (UDP payload bytes); 0 = unlimited. */
    public long bandwidthBytesPerSecond() {
        return bandwidthBytesPerSecond;
    }

    /** Token-bucket depth in bytes: how much may pass back to back after the link was idle. */
    public int burstBytes() {
        return burstBytes;
    }

    /** Bytes that may wait in the shaper; a datagram that would exceed it is dropped (tail drop). */
    public int queueLimitBytes() {
        return queueLimitBytes;
    }

    /** Probability in [0, 1) that a datagram is dropped, drawn independently per datagram. */
    public double lossRate() {
        return lossRate;
    }

    /** Seed of the loss and jitter draws. */
    public long seed() {
        return seed;
    }

    @Override
    public String toString() {
        return "oneWayDelayMs=" + oneWayDelayNs / 1e6 + " jitterMs=" + jitterNs / 1e6 +
            " bandwidthBytesPerSecond=" + (bandwidthBytesPerSecond == 0 ? "unlimited" : bandwidthBytesPerSecond) +
            " burstBytes=" + burstBytes + " queueLimitBytes=" + queueLimitBytes + " lossRate=" + lossRate + " seed=" + seed;
    }

    /** Mutable builder with the defaults above. */
    public static final class Builder {
        private long oneWayDelayNs = DEFAULT_ONE_WAY_DELAY_NS;
        private long jitterNs = DEFAULT_JITTER_NS;
        private long bandwidthBytesPerSecond = DEFAULT_BANDWIDTH_BYTES_PER_SECOND;
        private int burstBytes = DEFAULT_BURST_BYTES;
        private int queueLimitBytes = DEFAULT_QUEUE_LIMIT_BYTES;
        private double lossRate = DEFAULT_LOSS_RATE;
        private long seed = DEFAULT_SEED;

        private Builder() {
        }

        public Builder oneWayDelay(final long delay, final TimeUnit unit) {
            oneWayDelayNs = unit.toNanos(delay);
            return this;
        }

        public Builder oneWayDelayNs(final long oneWayDelayNs) {
            this.oneWayDelayNs = oneWayDelayNs;
            return this;
        }

        public Builder jitter(final long jitter, final TimeUnit unit) {
            jitterNs = unit.toNanos(jitter);
            return this;
        }

        public Builder jitterNs(final long jitterNs) {
            this.jitterNs = jitterNs;
            return this;
        }

        public Builder bandwidthBytesPerSecond(final long bandwidthBytesPerSecond) {
            this.bandwidthBytesPerSecond = bandwidthBytesPerSecond;
            return this;
        }

        public Builder burstBytes(final int burstBytes) {
            this.burstBytes = burstBytes;
            return this;
        }

        public Builder queueLimitBytes(final int queueLimitBytes) {
            this.queueLimitBytes = queueLimitBytes;
            return this;
        }

        public Builder lossRate(final double lossRate) {
            this.lossRate = lossRate;
            return this;
        }

        public Builder seed(final long seed) {
            this.seed = seed;
            return this;
        }

        public WanLinkConfig build() {
            if (oneWayDelayNs < 0) {
                throw new IllegalArgumentException("oneWayDelayNs=" + oneWayDelayNs + ", must be >= 0");
            }
            if (jitterNs < 0 || jitterNs > oneWayDelayNs) {
                throw new IllegalArgumentException(
                    "jitterNs=" + jitterNs + ", must be in [0, oneWayDelayNs=" + oneWayDelayNs + "]");
            }
            if (bandwidthBytesPerSecond < 0) {
                throw new IllegalArgumentException(
                    "bandwidthBytesPerSecond=" + bandwidthBytesPerSecond + ", must be >= 0 (0 = unlimited)");
            }
            if (burstBytes < 1) {
                throw new IllegalArgumentException("burstBytes=" + burstBytes + ", must be >= 1");
            }
            if (queueLimitBytes < 1) {
                throw new IllegalArgumentException("queueLimitBytes=" + queueLimitBytes + ", must be >= 1");
            }
            if (!(lossRate >= 0.0 && lossRate < 1.0)) {
                throw new IllegalArgumentException("lossRate=" + lossRate + ", must be in [0, 1)");
            }
            return new WanLinkConfig(this);
        }
    }
}
