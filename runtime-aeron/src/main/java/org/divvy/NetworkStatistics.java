package org.divvy;

/**
 * An immutable snapshot of one node's network counters: remote steals it made (inside its site and
 * wide-area), jobs it gave to and ran for peers, messages and bytes it sent per message type, and the
 * received frames it did not hear: those that failed authentication (from processes without the cluster
 * secret, replays, another run's) and the authentic ones it dropped (malformed, from no member).
 * A run's statistics hold the difference over the run ({@link RunStatistics#network()}), except the
 * network agent's longest cycle, its own CPU time per cycle and its longest gap, which are maxima since the node
 * started.
 */
public final class NetworkStatistics {
    private final long siteStealAttempts;
    private final long siteSteals;
    private final long wideAreaStealAttempts;
    private final long wideAreaSteals;
    private final long jobsGiven;
    private final long remoteJobsRun;
    private final long[] messagesSent;
    private final long[] bytesSent;
    private final String[] typeNames;
    private final long framesUnauthenticated;
    private final long framesDropped;
    private final long longestAgentCycleNs;
    private final long longestAgentGapNs;
    private final long longestAgentCycleCpuNs;
    private final long mostAgentCycleCpuNs;
    private final long mostAgentCycleCpuAtNs;
    private final RecoveryStatistics recovery;
    /** What extensions (shared objects) report, since the node started; empty when none did anything. */
    private final String extensions;
    private final long messagesLostInTransit;
    private final long lossesReported;
    private final long removedForLoss;

    /**
     * @param siteStealAttempts     steal requests sent to nodes of this node's site
     * @param siteSteals            of those, replies that carried a job
     * @param wideAreaStealAttempts steal requests sent to nodes of other sites
     * @param wideAreaSteals        of those, replies that carried a job
     * @param jobsGiven             jobs this node gave to remote thieves
     * @param remoteJobsRun         jobs stolen from peers that ended here
     * @param messagesSent          messages sent, indexed by message type code
     * @param bytesSent             bytes sent, indexed by message type code
     * @param typeNames             the name of each message type code (null where none is registered)
     * @param longestAgentCycleNs   the longest network agent duty cycle since the node started
     * @param longestAgentGapNs     the longest gap between two awake agent cycles since the node started
     * @param longestAgentCycleCpuNs the agent thread's CPU time in its longest cycle (-1: not measured)
     * @param mostAgentCycleCpuNs   the most CPU time the agent thread used in one cycle since the node started (-1:
     *                              not measured)
     * @param mostAgentCycleCpuAtNs when that cycle ended, in ns since the node's agent started
     * @param framesUnauthenticated received frames dropped because they failed authentication
     * @param framesDropped         authentic received frames dropped (malformed, unknown type, from no member)
     * @param recovery              what fault tolerance did on this node
     * @param messagesLostInTransit messages from peers that never arrived (skips in their streams' sequence numbers)
     * @param lossesReported        STREAM_LOST reports this node sent the registry (one per peer)
     * @param removedForLoss        members the registry this node hosts declared dead for lost messages
     */
    public NetworkStatistics(final long siteStealAttempts, final long siteSteals, final long wideAreaStealAttempts,
        final long wideAreaSteals, final long jobsGiven, final long remoteJobsRun, final long[] messagesSent,
        final long[] bytesSent, final String[] typeNames, final long longestAgentCycleNs, final long longestAgentGapNs,
        final long longestAgentCycleCpuNs, final long mostAgentCycleCpuNs, final long mostAgentCycleCpuAtNs,
        final long framesUnauthenticated, final long framesDropped, final RecoveryStatistics recovery,
        final long messagesLostInTransit, final long lossesReported, final long removedForLoss) {
        this(siteStealAttempts, siteSteals, wideAreaStealAttempts, wideAreaSteals, jobsGiven, remoteJobsRun, messagesSent, bytesSent,
            typeNames, longestAgentCycleNs, longestAgentGapNs, longestAgentCycleCpuNs, mostAgentCycleCpuNs, mostAgentCycleCpuAtNs,
            framesUnauthenticated, framesDropped, recovery, messagesLostInTransit, lossesReported, removedForLoss, "");
    }

    /** As the constructor above, with the lines extensions (shared objects) report since the node started. */
    public NetworkStatistics(final long siteStealAttempts, final long siteSteals, final long wideAreaStealAttempts,
        final long wideAreaSteals, final long jobsGiven, final long remoteJobsRun, final long[] messagesSent,
        final long[] bytesSent, final String[] typeNames, final long longestAgentCycleNs, final long longestAgentGapNs,
        final long longestAgentCycleCpuNs, final long mostAgentCycleCpuNs, final long mostAgentCycleCpuAtNs,
        final long framesUnauthenticated, final long framesDropped, final RecoveryStatistics recovery,
        final long messagesLostInTransit, final long lossesReported, final long removedForLoss, final String extensions) {
        this.extensions = extensions;
        this.recovery = recovery;
        this.longestAgentCycleCpuNs = longestAgentCycleCpuNs;
        this.mostAgentCycleCpuNs = mostAgentCycleCpuNs;
        this.mostAgentCycleCpuAtNs = mostAgentCycleCpuAtNs;
        this.messagesLostInTransit = messagesLostInTransit;
        this.lossesReported = lossesReported;
        this.removedForLoss = removedForLoss;
        this.longestAgentCycleNs = longestAgentCycleNs;
        this.longestAgentGapNs = longestAgentGapNs;
        this.framesUnauthenticated = framesUnauthenticated;
        this.framesDropped = framesDropped;
        this.siteStealAttempts = siteStealAttempts;
        this.siteSteals = siteSteals;
        this.wideAreaStealAttempts = wideAreaStealAttempts;
        this.wideAreaSteals = wideAreaSteals;
        this.jobsGiven = jobsGiven;
        this.remoteJobsRun = remoteJobsRun;
        this.messagesSent = messagesSent.clone();
        this.bytesSent = bytesSent.clone();
        this.typeNames = typeNames.clone();
    }

    public long siteStealAttempts() {
        return siteStealAttempts;
    }

    public long siteSteals() {
        return siteSteals;
    }

    public long wideAreaStealAttempts() {
        return wideAreaStealAttempts;
    }

    public long wideAreaSteals() {
        return wideAreaSteals;
    }

    /** Successful remote steals of both kinds. */
    public long remoteSteals() {
        return siteSteals + wideAreaSteals;
    }

    public long jobsGiven() {
        return jobsGiven;
    }

    public long remoteJobsRun() {
        return remoteJobsRun;
    }

    /** What fault tolerance did on this node: jobs restarted, orphans kept and reused. */
    public RecoveryStatistics recovery() {
        return recovery;
    }

    /**
     * Messages from peers that never arrived: their streams' sequence numbers skipped them (Aeron gave up on a
     * stream, as after a stop longer than its 10 s image liveness timeout). Each such loss is handled as a failure.
     */
    public long messagesLostInTransit() {
        return messagesLostInTransit;
    }

    /** STREAM_LOST reports this node sent the registry: losses between it and a peer, one report per peer. */
    public long lossesReported() {
        return lossesReported;
    }

    /** Members the registry hosted here declared dead because messages to or from them were lost (0 elsewhere). */
    public long removedForLoss() {
        return removedForLoss;
    }

    /** Received frames dropped because they failed authentication: wrong or no key, replayed, bad tag. */
    public long framesUnauthenticated() {
        return framesUnauthenticated;
    }

    /** Authentic received frames dropped: malformed, of an unknown type, from a sender that is no member. */
    public long framesDropped() {
        return framesDropped;
    }

    /**
     * The longest one network agent duty cycle took since the node started, in ns: the longest the agent
     * stalled its own heartbeats and frames (a large encode or decode on its thread would show here).
     */
    public long longestAgentCycleNs() {
        return longestAgentCycleNs;
    }

    /**
     * The CPU time the network agent thread used in its longest cycle (and at most about 1 ms before it), in ns;
     * -1 if the JVM does not measure it. Much less than {@link #longestAgentCycleNs()}: that cycle was mostly the
     * thread stopped (a GC pause, a safepoint) or waiting for a core, not the agent's own work.
     */
    public long longestAgentCycleCpuNs() {
        return longestAgentCycleCpuNs;
    }

    /**
     * The most CPU time the network agent thread used in one cycle (and at most about 1 ms before it) since the
     * node started, in ns: an upper bound of the agent's own work in any one cycle; -1 if not measured.
     */
    public long mostAgentCycleCpuNs() {
        return mostAgentCycleCpuNs;
    }

    /** When the cycle of {@link #mostAgentCycleCpuNs()} ended, in ns since the node's agent started. */
    public long mostAgentCycleCpuAtNs() {
        return mostAgentCycleCpuAtNs;
    }

    /**
     * The longest time between two awake network agent cycles since the node started, in ns: its idle
     * park (at most 1 ms) plus any time the thread got no core (GC pause, busy machine).
     */
    public long longestAgentGapNs() {
        return longestAgentGapNs;
    }

    /** Messages of {@code type} (a message type code, such as {@code StealRequestFlyweight.TYPE}) sent. */
    public long messagesSent(final int type) {
        return type >= 0 && type < messagesSent.length ? messagesSent[type] : 0;
    }

    /** Bytes of messages of {@code type} sent. */
    public long bytesSent(final int type) {
        return type >= 0 && type < bytesSent.length ? bytesSent[type] : 0;
    }

    /** The name of message type {@code type}, or {@code "type N"}. */
    public String typeName(final int type) {
        final String name = type >= 0 && type < typeNames.length ? typeNames[type] : null;
        return name != null ? name : "type " + type;
    }

    /** These counters minus an earlier snapshot of the same node. */
    public NetworkStatistics minus(final NetworkStatistics earlier) {
        final long[] messages = messagesSent.clone();
        final long[] bytes = bytesSent.clone();
        for (int i = 0; i < messages.length && i < earlier.messagesSent.length; i++) {
            messages[i] -= earlier.messagesSent[i];
            bytes[i] -= earlier.bytesSent[i];
        }
        return new NetworkStatistics(siteStealAttempts - earlier.siteStealAttempts, siteSteals - earlier.siteSteals,
            wideAreaStealAttempts - earlier.wideAreaStealAttempts, wideAreaSteals - earlier.wideAreaSteals,
            jobsGiven - earlier.jobsGiven, remoteJobsRun - earlier.remoteJobsRun, messages, bytes, typeNames,
            longestAgentCycleNs, longestAgentGapNs, longestAgentCycleCpuNs, mostAgentCycleCpuNs,
            mostAgentCycleCpuAtNs, framesUnauthenticated - earlier.framesUnauthenticated, framesDropped - earlier.framesDropped,
            recovery.minus(earlier.recovery), messagesLostInTransit - earlier.messagesLostInTransit,
            lossesReported - earlier.lossesReported, removedForLoss - earlier.removedForLoss, extensions);
    }

    /** The lines extensions (shared objects) report, counted since the node started; empty when none did anything. */
    public String extensions() {
        return extensions;
    }

    /** A compact table: remote steals, received frames not heard (if any), then messages and bytes sent per type used. */
    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder();
        sb.append(String.format("remote steals: site %d/%d, wide-area %d/%d; jobs given %d, run for peers %d%n",
            siteSteals, siteStealAttempts, wideAreaSteals, wideAreaStealAttempts, jobsGiven, remoteJobsRun));
        if (recovery.any()) {
            sb.append("  ").append(recovery).append(String.format("%n"));
        }
        if (messagesLostInTransit != 0 || lossesReported != 0 || removedForLoss != 0) {
            sb.append(String.format("  lost in transit: %d messages from peers; %d losses reported to the registry; " +
                "%d members declared dead for lost messages by the registry here%n", messagesLostInTransit,
                lossesReported, removedForLoss));
        }
        if (!extensions.isEmpty()) {
            sb.append("  ").append(extensions.strip()).append(String.format(" (since start)%n"));
        }
        if (framesUnauthenticated != 0 || framesDropped != 0) {
            sb.append(String.format("  received frames not heard: %d failed authentication, %d dropped%n",
                framesUnauthenticated, framesDropped));
        }
        sb.append(String.format("  network agent since start: longest cycle %.1f ms", longestAgentCycleNs / 1e6));
        if (longestAgentCycleCpuNs >= 0) {
            sb.append(String.format(" (its own CPU %.1f ms)", longestAgentCycleCpuNs / 1e6));
        }
        if (mostAgentCycleCpuNs >= 0) {
            sb.append(String.format(", most own CPU in one cycle %.1f ms (%.1f s after start)",
                mostAgentCycleCpuNs / 1e6, mostAgentCycleCpuAtNs / 1e9));
        }
        sb.append(String.format(", longest gap between cycles %.1f ms%n", longestAgentGapNs / 1e6));
        sb.append(String.format("  %-14s %10s %12s%n", "sent", "messages", "bytes"));
        for (int type = 1; type < messagesSent.length; type++) {
            if (messagesSent[type] != 0) {
                sb.append(String.format("  %-14s %10d %12d%n", typeName(type), messagesSent[type], bytesSent[type]));
            }
        }
        return sb.toString();
    }
}
