package org.divvy.membership;

import java.util.concurrent.TimeUnit;

import org.agrona.collections.Int2ObjectHashMap;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;

/**
 * Phi-accrual failure detection (Hayashibara et al., 2004; Akka's {@code PhiAccrualFailureDetector},
 * Cassandra): instead of a fixed timeout, each watched id's heartbeat inter-arrival times are kept in a
 * bounded window, and the silence since its last heartbeat is rated by how unlikely it is under a normal
 * distribution with the window's mean (plus the acceptable pause) and standard deviation (at least the
 * minimum). The rating, phi, is {@code -log10} of the probability that a heartbeat still comes this
 * late: phi 8 means a one-in-10^8 chance of a false suspicion. An id whose phi reaches the threshold is
 * suspected (reported once and forgotten).
 *
 * <p>The acceptable pause is what makes a stopped node survive: the mean is shifted by it, so with
 * heartbeats every 100 ms, a pause of 7 s and a minimum deviation of 100 ms, a node is suspected about
 * {@code 0.1 + 7 + 5.2 * 0.1 = 7.6} s after its last heartbeat. An interval longer than half the acceptable
 * pause is a pause, not the rhythm, and is not recorded: one 5 s stop would otherwise raise the deviation
 * for the next thousand heartbeats and delay the next detection by seconds.
 *
 * <p>{@link #restartAll} is for this node's own pause: while it was stopped it heard nobody, so the
 * silence it measures says nothing about the others; every watch starts again as if just heard.
 *
 * <p>A pure policy object: time comes in as {@code nowNs} and only differences of it are used, so it
 * works with any clock, a test's fake one included. A watch allocates its window once, when its id is
 * first heard; a heartbeat allocates nothing. Owned by the thread that drives it.
 */
final class PhiAccrualFailureDetector {
    /** Told of a suspected id, with how long it was silent and its phi at that moment. */
    @FunctionalInterface
    interface SuspicionHandler {
        void onSuspected(int id, long silenceNs, double phi);
    }

    /**
     * Heartbeat intervals remembered per watched id: at 100 ms, the last 100 s. Long enough that a burst
     * of late heartbeats barely moves the statistics; 4 KiB per watched id.
     */
    static final int WINDOW_SIZE = 1000;
    /**
     * The deviation assumed at least (Akka's default): heartbeats that come like clockwork would otherwise
     * make a few ms of lateness (a busy core, a deep-idle park) look suspicious.
     */
    static final long MIN_STD_DEV_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final class Watch {
        final int[] intervalsUs = new int[windowSize];
        int count;
        int next;
        long sumUs;
        long sumSquaresUs;
        long lastHeardNs;
        /** Set by a restart: the next heartbeat only marks the time, its interval would be part of a pause. */
        boolean skipNextInterval;

        void restart(final long nowNs) {
            count = 0;
            next = 0;
            sumUs = 0;
            sumSquaresUs = 0;
            // Akka's bootstrap: the expected interval, give or take a quarter, until real ones come in
            final long estimateUs = firstIntervalEstimateNs / 1000;
            record(estimateUs - estimateUs / 4);
            record(estimateUs + estimateUs / 4);
            lastHeardNs = nowNs;
        }

        void record(final long intervalUs) {
            if (count == windowSize) {
                final long oldest = intervalsUs[next];
                sumUs -= oldest;
                sumSquaresUs -= oldest * oldest;
            } else {
                count++;
            }
            intervalsUs[next] = (int) intervalUs;
            next = next + 1 == windowSize ? 0 : next + 1;
            sumUs += intervalUs;
            sumSquaresUs += intervalUs * intervalUs;
        }

        /** Mean interval plus the acceptable pause, in ns. */
        double expectedNs() {
            return (double) sumUs / count * 1000.0 + acceptablePauseNs;
        }

        double stdDevNs() {
            final double mean = (double) sumUs / count;
            final double variance = Math.max(0.0, (double) sumSquaresUs / count - mean * mean);
            return Math.max(Math.sqrt(variance) * 1000.0, minStdDevNs);
        }
    }

    private final double threshold;
    private final long acceptablePauseNs;
    private final long firstIntervalEstimateNs;
    private final long minStdDevNs;
    private final long longestRecordedIntervalNs;
    private final int windowSize;
    private final Int2ObjectHashMap<Watch> watches = new Int2ObjectHashMap<>();

    /**
     * @param threshold               phi at which an id is suspected; at least 1 (below, a heartbeat exactly on
     *                                time would already be suspect)
     * @param acceptablePauseNs       silence beyond the usual rhythm that is not yet suspicious
     * @param firstIntervalEstimateNs the heartbeat interval expected before any is measured (the send interval)
     * @param minStdDevNs             the deviation assumed at least, so a very regular rhythm does not make a
     *                                few ms of lateness suspicious
     * @param windowSize              intervals remembered per id
     */
    PhiAccrualFailureDetector(final double threshold, final long acceptablePauseNs, final long firstIntervalEstimateNs,
        final long minStdDevNs, final int windowSize) {
        if (!(threshold >= 1)) {
            throw new DivvyException("threshold=" + threshold + ", must be >= 1");
        }
        if (acceptablePauseNs < 0 || firstIntervalEstimateNs <= 0 || minStdDevNs <= 0 || windowSize < 2) {
            throw new DivvyException("acceptablePauseNs=" + acceptablePauseNs + ", firstIntervalEstimateNs=" +
                firstIntervalEstimateNs + ", minStdDevNs=" + minStdDevNs + ", windowSize=" + windowSize +
                ": must be >= 0, > 0, > 0 and >= 2");
        }
        this.threshold = threshold;
        this.acceptablePauseNs = acceptablePauseNs;
        this.firstIntervalEstimateNs = firstIntervalEstimateNs;
        this.minStdDevNs = minStdDevNs;
        this.windowSize = windowSize;
        // an interval must fit the window's int microseconds; longer ones are pauses anyway
        this.longestRecordedIntervalNs = Math.min(Math.max(acceptablePauseNs / 2, firstIntervalEstimateNs),
            Integer.MAX_VALUE * 1000L);
    }

    /** The detector a node's membership uses: the configured threshold and pause, heartbeats at the configured interval. */
    static PhiAccrualFailureDetector of(final NodeConfig config) {
        return new PhiAccrualFailureDetector(config.failurePhiThreshold(),
            TimeUnit.MILLISECONDS.toNanos(config.acceptableHeartbeatPauseMs()),
            TimeUnit.MILLISECONDS.toNanos(config.heartbeatIntervalMs()), MIN_STD_DEV_NS, WINDOW_SIZE);
    }

    double threshold() {
        return threshold;
    }

    long acceptablePauseNs() {
        return acceptablePauseNs;
    }

    /** Starts watching {@code id} as heard at {@code nowNs}, or records its heartbeat's interval. */
    void onHeard(final int id, final long nowNs) {
        Watch watch = watches.get(id);
        if (watch == null) {
            watch = new Watch();
            watch.restart(nowNs);
            watches.put(id, watch);
            return;
        }
        final long intervalNs = nowNs - watch.lastHeardNs;
        if (intervalNs <= 0) {
            return; // several frames polled in one duty cycle: one arrival
        }
        watch.lastHeardNs = nowNs;
        if (watch.skipNextInterval) {
            watch.skipNextInterval = false;
        } else if (intervalNs <= longestRecordedIntervalNs) {
            watch.record(intervalNs / 1000);
        }
    }

    /** Whether {@code id} is watched (and not suspected yet). */
    boolean isWatched(final int id) {
        return watches.containsKey(id);
    }

    /** Stops watching {@code id} (it left). */
    void remove(final int id) {
        watches.remove(id);
    }

    /** This node was paused: every watched id counts as heard at {@code nowNs}, its history restarted. */
    void restartAll(final long nowNs) {
        for (final Watch watch : watches.values()) {
            watch.restart(nowNs);
            watch.skipNextInterval = true;
        }
    }

    /** How long {@code id} has been silent at {@code nowNs}; 0 if not watched. */
    long silenceNs(final int id, final long nowNs) {
        final Watch watch = watches.get(id);
        return watch == null ? 0 : nowNs - watch.lastHeardNs;
    }

    /** The suspicion level of {@code id} at {@code nowNs}; 0 if not watched. */
    double phi(final int id, final long nowNs) {
        final Watch watch = watches.get(id);
        return watch == null ? 0.0 : phi(nowNs - watch.lastHeardNs, watch.expectedNs(), watch.stdDevNs());
    }

    /** Reports and forgets every id whose phi reached the threshold at {@code nowNs}; returns how many. */
    int pollSuspected(final long nowNs, final SuspicionHandler handler) {
        int suspected = 0;
        final Int2ObjectHashMap<Watch>.EntryIterator it = watches.entrySet().iterator();
        while (it.hasNext()) {
            it.next();
            final Watch watch = it.getValue();
            final long silenceNs = nowNs - watch.lastHeardNs;
            final double expectedNs = watch.expectedNs();
            if (silenceNs <= expectedNs) {
                continue; // phi <= log10(2) there, below any threshold: no logarithm on the common path
            }
            final double phi = phi(silenceNs, expectedNs, watch.stdDevNs());
            if (phi >= threshold) {
                final int id = it.getIntKey();
                it.remove();
                handler.onSuspected(id, silenceNs, phi);
                suspected++;
            }
        }
        return suspected;
    }

    /**
     * Phi of a silence of {@code silenceNs} when heartbeats come every {@code meanNs} with deviation
     * {@code stdDevNs}: {@code -log10(1 - F(silence))} with F the normal distribution's CDF, by the logistic
     * approximation of the CDF Akka uses (Bowling et al., 2009; off by at most 0.00014). Infinite when the probability
     * underflows.
     */
    static double phi(final long silenceNs, final double meanNs, final double stdDevNs) {
        final double y = (silenceNs - meanNs) / stdDevNs;
        final double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
        return silenceNs > meanNs ? -Math.log10(e / (1.0 + e)) : -Math.log10(1.0 - 1.0 / (1.0 + e));
    }
}
