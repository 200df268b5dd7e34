package org.divvy.perf.wan;

import java.util.SplittableRandom;

/**
 * Decides the fate of each datagram on one direction of a link: lost, dropped because the shaper's
 * queue is full, or released at a computed time. A pure object driven by the caller's clock, so tests
 * step it with made-up times; owned by the relay thread.
 *
 * <p>The bandwidth cap is a token bucket evaluated in virtual time: datagrams leave the shaper in
 * arrival order, each as soon as the bucket holds its length; the bucket refills at the cap and holds
 * at most {@code burstBytes}. Nothing waits on a timer here: admitting a datagram just computes when it
 * leaves, then adds the propagation delay and jitter.
 */
final class LinkShaper {
    /** {@link #admit} verdict: the datagram will be released at {@link #lastReleaseNs()}. */
    static final int ADMITTED = 0;
    /** {@link #admit} verdict: dropped by the random loss draw. */
    static final int LOST = 1;
    /** {@link #admit} verdict: dropped because the bytes waiting for the bandwidth cap would exceed the queue limit. */
    static final int QUEUE_FULL = 2;

    private static final double NANOS_PER_SECOND = 1e9;

    private final WanLinkConfig config;
    private final SplittableRandom random;
    private final double bytesPerNs;
    private boolean started;
    private double tokensBytes;
    private long tokensAtNs;
    private long shaperFreeNs;
    private long lastReleaseNs;

    LinkShaper(final WanLinkConfig config) {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
        this.bytesPerNs = config.bandwidthBytesPerSecond() / NANOS_PER_SECOND;
        this.tokensBytes = config.burstBytes();
    }

    /**
     * Admits a datagram of {@code lengthBytes} that arrived at {@code nowNs}; returns {@link #ADMITTED},
     * {@link #LOST} or {@link #QUEUE_FULL}.
     */
    int admit(final long nowNs, final int lengthBytes) {
        if (!started) {
            started = true;
            tokensAtNs = nowNs;
            shaperFreeNs = nowNs;
            lastReleaseNs = nowNs;
        }
        if (config.lossRate() > 0 && random.nextDouble() < config.lossRate()) {
            return LOST;
        }
        final long departNs = config.bandwidthBytesPerSecond() == 0 ? nowNs : shape(nowNs, lengthBytes);
        if (departNs == Long.MIN_VALUE) {
            return QUEUE_FULL;
        }
        final long jitterNs = config.jitterNs() == 0 ? 0 : random.nextLong(-config.jitterNs(), config.jitterNs() + 1);
        long releaseNs = departNs + config.oneWayDelayNs() + jitterNs;
        if (releaseNs - lastReleaseNs < 0) {
            releaseNs = lastReleaseNs;
        }
        lastReleaseNs = releaseNs;
        return ADMITTED;
    }

    /** When the last admitted datagram is to be sent on; valid after {@link #admit} returned {@link #ADMITTED}. */
    long lastReleaseNs() {
        return lastReleaseNs;
    }

    /** Bytes that arrived but have not yet left the shaper at {@code nowNs}. */
    double backlogBytes(final long nowNs) {
        final long waitNs = shaperFreeNs - nowNs;
        return waitNs > 0 ? waitNs * bytesPerNs : 0;
    }

    /** Returns when the datagram leaves the shaper, or {@code Long.MIN_VALUE} when the queue is full. */
    private long shape(final long nowNs, final int lengthBytes) {
        if (backlogBytes(nowNs) + lengthBytes > config.queueLimitBytes()) {
            return Long.MIN_VALUE;
        }
        final long startNs = shaperFreeNs - nowNs > 0 ? shaperFreeNs : nowNs;
        tokensBytes = Math.min(config.burstBytes(), tokensBytes + (startNs - tokensAtNs) * bytesPerNs);
        tokensAtNs = startNs;
        long departNs = startNs;
        if (tokensBytes >= lengthBytes) {
            tokensBytes -= lengthBytes;
        } else {
            departNs = startNs + (long)Math.ceil((lengthBytes - tokensBytes) / bytesPerNs);
            tokensBytes = 0;
            tokensAtNs = departNs;
        }
        shaperFreeNs = departNs;
        return departNs;
    }
}
