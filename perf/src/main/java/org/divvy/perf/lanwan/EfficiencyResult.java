package org.divvy.perf.lanwan;

import org.divvy.StealPolicy;

/**
 * One SIMULATED efficiency measurement: {@code leaves} leaves of {@code leafUs} each on {@code nodes}
 * nodes (one worker each) across sites {@code oneWayDelayMs} apart.
 *
 * @param idealMs            leaves x leafUs / nodes, the nominal ideal time
 * @param calibratedIdealMs  the same with the measured mean duration of one parked leaf (parking overshoots)
 * @param siteStealAttempts  steal requests to nodes of the same site, summed over all nodes
 * @param wideStealAttempts  steal requests to nodes of other sites, summed over all nodes
 * @param relayedDatagrams   datagrams the WAN relay delivered during the run (Aeron data, status, heartbeats)
 */
record EfficiencyResult(
    StealPolicy policy, long oneWayDelayMs, int leafUs, int nodes, int fibN, long leaves, boolean answerCorrect,
    double elapsedMs, double idealMs, double calibratedIdealMs, long siteStealAttempts, long wideStealAttempts,
    long wideSteals, long relayedDatagrams) {

    double efficiency() {
        return idealMs / elapsedMs;
    }

    double calibratedEfficiency() {
        return calibratedIdealMs / elapsedMs;
    }

    /** Wide-area steal requests among all remote steal requests; NaN when there were none. */
    double wideAreaFraction() {
        final long all = siteStealAttempts + wideStealAttempts;
        return all == 0 ? Double.NaN : (double)wideStealAttempts / all;
    }
}
