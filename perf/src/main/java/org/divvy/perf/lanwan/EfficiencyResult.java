package org.divvy.perf.lanwan;

import org.divvy.StealPolicy;

/**
 * One SIMULATED efficiency run: {@code leaves} leaves of {@code leafUs} each on {@code nodes} nodes (one
 * worker each) across sites {@code oneWayDelayMs} apart. The loss fractions split the node-time the run
 * did not spend on nominal leaf time ({@code nodes x elapsed - leaves x leafUs}); with {@link #efficiency()}
 * they add up to 1.
 *
 * @param round              which repetition of this case (1..)
 * @param idealMs            leaves x leafUs / nodes, the nominal ideal time
 * @param parkedMs           time the leaves actually parked, summed over all nodes (parking overshoots)
 * @param overshootLoss      (parked - nominal leaf time) / node-time: the harness's park overshoot
 * @param rampLoss           node-time before each node's first leaf / node-time: start-up (work spreading out)
 * @param tailLoss           node-time after each node's last leaf / node-time: the end (nodes run dry)
 * @param gapLoss            the rest: gaps between leaves (steals, waits for stolen work, the tree's own jobs)
 * @param lastFirstLeafMs    when the last node to start parked its first leaf, ms after the run started
 * @param firstLastLeafMs    how long before the run's end the first node to finish parked its last leaf, ms
 * @param siteStealAttempts  steal requests to nodes of the same site, summed over all nodes
 * @param wideStealAttempts  steal requests to nodes of other sites, summed over all nodes
 * @param relayedDatagrams   datagrams the WAN relay delivered during the run (Aeron data, status, heartbeats)
 * @param bySite             per site: when its nodes parked their first leaves and how long before the end their last
 */
record EfficiencyResult(
    StealPolicy policy, long oneWayDelayMs, int leafUs, int round, int nodes, int fibN, long leaves, boolean answerCorrect,
    double elapsedMs, double idealMs, double parkedMs, double overshootLoss, double rampLoss, double tailLoss, double gapLoss,
    double lastFirstLeafMs, double firstLastLeafMs, long siteStealAttempts, long wideStealAttempts, long wideSteals,
    long relayedDatagrams, String bySite) {

    /** Nominal: ideal / measured, the figure the targets are stated in. */
    double efficiency() {
        return idealMs / elapsedMs;
    }

    /** The share of node-time the leaves actually parked: efficiency as if parking did not overshoot. */
    double parkedEfficiency() {
        return parkedMs / nodes / elapsedMs;
    }

    /** Mean measured duration of one leaf, µs. */
    double parkedLeafUs() {
        return parkedMs * 1000.0 / leaves;
    }

    /** Wide-area steal requests among all remote steal requests; NaN when there were none. */
    double wideAreaFraction() {
        final long all = siteStealAttempts + wideStealAttempts;
        return all == 0 ? Double.NaN : (double)wideStealAttempts / all;
    }
}
