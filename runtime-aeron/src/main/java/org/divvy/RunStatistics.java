package org.divvy;

import java.util.Arrays;

/**
 * An immutable snapshot of one run's scheduler counters. Job counts are exact once the run has
 * completed; times come from per-worker clocks and are accurate to about one idle park.
 */
public final class RunStatistics {
    private final long jobsSpawned;
    private final long jobsExecuted;
    private final long jobsCancelled;
    private final long localStealAttempts;
    private final long localSteals;
    private final long elapsedNs;
    private final long[] idleNsPerWorker;
    private final NetworkStatistics network;

    /**
     * @param jobsSpawned         jobs spawned (the root excluded)
     * @param jobsExecuted        spawned jobs that ran (the root excluded; cancelled-while-queued excluded)
     * @param jobsCancelled       jobs cancelled before they started
     * @param localStealAttempts  polls of another local worker's non-empty deque
     * @param localSteals         polls that returned a job
     * @param elapsedNs           wall time of the run
     * @param idleNsPerWorker     time each worker spent finding no work, indexed by worker id
     */
    public RunStatistics(final long jobsSpawned, final long jobsExecuted, final long jobsCancelled,
        final long localStealAttempts, final long localSteals, final long elapsedNs, final long[] idleNsPerWorker) {
        this(jobsSpawned, jobsExecuted, jobsCancelled, localStealAttempts, localSteals, elapsedNs, idleNsPerWorker, null);
    }

    /** As above, with the node's network counters over the run ({@code network} null for a single node). */
    public RunStatistics(final long jobsSpawned, final long jobsExecuted, final long jobsCancelled,
        final long localStealAttempts, final long localSteals, final long elapsedNs, final long[] idleNsPerWorker,
        final NetworkStatistics network) {
        this.network = network;
        this.jobsSpawned = jobsSpawned;
        this.jobsExecuted = jobsExecuted;
        this.jobsCancelled = jobsCancelled;
        this.localStealAttempts = localStealAttempts;
        this.localSteals = localSteals;
        this.elapsedNs = elapsedNs;
        this.idleNsPerWorker = idleNsPerWorker.clone();
        for (int i = 0; i < this.idleNsPerWorker.length; i++) {
            this.idleNsPerWorker[i] = Math.max(0, Math.min(elapsedNs, this.idleNsPerWorker[i]));
        }
    }

    public long jobsSpawned() {
        return jobsSpawned;
    }

    public long jobsExecuted() {
        return jobsExecuted;
    }

    public long jobsCancelled() {
        return jobsCancelled;
    }

    public long localStealAttempts() {
        return localStealAttempts;
    }

    public long localSteals() {
        return localSteals;
    }

    /** These statistics with the node's network counters over the run. */
    public RunStatistics withNetwork(final NetworkStatistics network) {
        return new RunStatistics(jobsSpawned, jobsExecuted, jobsCancelled, localStealAttempts, localSteals, elapsedNs,
            idleNsPerWorker, network);
    }

    /** The node's network counters over the run, or null for a single node. */
    public NetworkStatistics network() {
        return network;
    }

    /** Steal requests sent to nodes of the own site (0 for a single node). */
    public long siteStealAttempts() {
        return network == null ? 0 : network.siteStealAttempts();
    }

    /** Steal requests to the own site that brought a job. */
    public long siteSteals() {
        return network == null ? 0 : network.siteSteals();
    }

    /** Steal requests sent to nodes of other sites. */
    public long wideAreaStealAttempts() {
        return network == null ? 0 : network.wideAreaStealAttempts();
    }

    /** Wide-area steal requests that brought a job. */
    public long wideAreaSteals() {
        return network == null ? 0 : network.wideAreaSteals();
    }

    /** Messages of a message type (by code) sent by this node during the run. */
    public long messagesSent(final int messageType) {
        return network == null ? 0 : network.messagesSent(messageType);
    }

    /** Bytes of messages of a message type (by code) sent by this node during the run. */
    public long bytesSent(final int messageType) {
        return network == null ? 0 : network.bytesSent(messageType);
    }

    public long elapsedNs() {
        return elapsedNs;
    }

    public int workerCount() {
        return idleNsPerWorker.length;
    }

    /** Time worker {@code worker} spent without work during the run, ns. */
    public long idleNs(final int worker) {
        return idleNsPerWorker[worker];
    }

    /** Time worker {@code worker} spent running jobs (elapsed minus idle), ns. */
    public long busyNs(final int worker) {
        return elapsedNs - idleNsPerWorker[worker];
    }

    /** Idle time over all workers divided by (elapsed time × workers); 0 when nothing elapsed. */
    public double idleFraction() {
        if (elapsedNs <= 0 || idleNsPerWorker.length == 0) {
            return 0;
        }
        return (double)Arrays.stream(idleNsPerWorker).sum() / ((double)elapsedNs * idleNsPerWorker.length);
    }

    /** A compact table: totals, one row per worker, then the network counters of a networked node. */
    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format("run %.3f ms: spawned %d, executed %d, cancelled %d, steals %d/%d, idle %.1f%%%n",
            elapsedNs / 1e6, jobsSpawned, jobsExecuted, jobsCancelled, localSteals, localStealAttempts,
            100 * idleFraction()));
        sb.append(String.format("  %-6s %12s %12s %7s%n", "worker", "busy ms", "idle ms", "idle %"));
        for (int i = 0; i < idleNsPerWorker.length; i++) {
            sb.append(String.format("  %-6d %12.3f %12.3f %6.1f%%%n", i, busyNs(i) / 1e6, idleNs(i) / 1e6,
                elapsedNs <= 0 ? 0.0 : 100.0 * idleNs(i) / elapsedNs));
        }
        if (network != null) {
            sb.append(network);
        }
        return sb.toString();
    }
}
