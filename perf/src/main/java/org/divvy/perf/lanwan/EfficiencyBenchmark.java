package org.divvy.perf.lanwan;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.StealPolicy;
import org.divvy.examples.fib.FibSequential;
import org.divvy.perf.PerfFiles;
import org.divvy.perf.PerfNodes;
import org.divvy.perf.wan.WanRelay;

/**
 * SIMULATED efficiency of the steal policies: all nodes run in this JVM (one worker each, each with its own
 * embedded media driver, fixed ports), a {@link WanRelay} delays every message between sites, and fib's
 * leaves park for {@code leafUs} instead of computing ({@link TimedFib}). Efficiency = (leaves x leafUs /
 * nodes) / measured time. Parked workers use no CPU, so two cores can host all nodes; the agents and the
 * relay do the rest.
 *
 * <p>Each run gets a fresh relay and node set, and the runs interleave: round by round, each delay, each
 * policy, so a change in the machine's load hits every case alike. The 0 ms delay (still through the
 * relay) is the control: what this harness loses without any wide-area latency.
 */
final class EfficiencyBenchmark {
    /** Leaves are calls with n below this: fib(2) (and fib(1), fib(0) do not park), the finest grain. */
    static final int THRESHOLD = 3;
    /** The control case: no delay between sites, everything else the same. */
    static final long CONTROL_DELAY_MS = 0;
    private static final int TERM_LENGTH_BYTES = 64 * 1024;
    /** The untimed first run's ideal time: class loading and the JIT's first compilations go there. */
    private static final double WARM_UP_IDEAL_MS = 1500;

    private final WanTopology topology;
    /** Every node's settings before the benchmark's own. */
    private final NodeConfig base;
    private final PrintStream log;
    /** Leaves last leafUs on average (true) or at least leafUs (false): {@link LeafProbe#leaf}. */
    private final boolean compensatedLeaves;

    EfficiencyBenchmark(final WanTopology topology, final NodeConfig base, final PrintStream log, final boolean compensatedLeaves) {
        this.topology = topology;
        this.base = base;
        this.log = log;
        this.compensatedLeaves = compensatedLeaves;
    }

    /** Leaves that park in {@code new TimedFib(THRESHOLD, us).fib(n)}. */
    static long parkedLeaves(final int n) {
        if (n < 2) {
            return 0;
        }
        long a = 0; // P(1)
        long b = 1; // P(2)
        for (int i = 3; i <= n; i++) {
            final long c = a + b;
            a = b;
            b = c;
        }
        return b;
    }

    /** The smallest fib argument whose ideal time on {@code nodes} nodes is at least {@code idealMs}. */
    static int fibArgumentFor(final double idealMs, final int leafUs, final int nodes) {
        int n = 2;
        while (parkedLeaves(n) * (double)leafUs / 1000.0 / nodes < idealMs && n < 60) {
            n++;
        }
        return n;
    }

    /**
     * Runs {@code rounds} rounds; each round runs every (delay, policy, leaf time) once on a fresh relay
     * and node set. The control delay runs first in each round. An untimed warm-up run comes first.
     */
    List<EfficiencyResult> run(final long[] delaysMs, final StealPolicy[] policies, final int[] leafUs, final double idealMs,
        final int rounds, final boolean warmUp) {
        if (warmUp) {
            final long startNs = System.nanoTime();
            try (WanRelay relay = topology.startRelay(CONTROL_DELAY_MS); Cluster cluster = Cluster.start(topology, relay, policies[0], base)) {
                measure(cluster, relay, policies[0], CONTROL_DELAY_MS, leafUs[0], 0, WARM_UP_IDEAL_MS);
            }
            log.printf("warm-up run (untimed, %s, 0 ms, ideal %.0f ms) done in %.1f s%n", policies[0], WARM_UP_IDEAL_MS,
                (System.nanoTime() - startNs) / 1e9);
        }
        final List<EfficiencyResult> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (final long delayMs : delaysMs) {
                for (final StealPolicy policy : policies) {
                    for (final int leaf : leafUs) {
                        final long startNs = System.nanoTime();
                        try (WanRelay relay = topology.startRelay(delayMs); Cluster cluster = Cluster.start(topology, relay, policy, base)) {
                            final double startS = (System.nanoTime() - startNs) / 1e9;
                            final EfficiencyResult r = measure(cluster, relay, policy, delayMs, leaf, round, idealMs);
                            log.printf(Locale.ROOT, "SIMULATED round %d %s delay=%d ms leaf=%d us nodes=%d fib(%d) leaves=%d: %.0f ms, " +
                                    "ideal %.0f ms, efficiency %.3f (parked %.3f, a leaf parked %.0f us); lost: overshoot %.3f, " +
                                    "ramp %.3f (last node's first leaf at %.0f ms), tail %.3f (first node done %.0f ms before the end), " +
                                    "gaps %.3f; wide-area steal requests %d of %d (%.3f), %d wide-area steals; cluster start %.1f s, " +
                                    "load average %s%s%n",
                                round, policy, delayMs, leaf, r.nodes(), r.fibN(), r.leaves(), r.elapsedMs(), r.idealMs(),
                                r.efficiency(), r.parkedEfficiency(), r.parkedLeafUs(), r.overshootLoss(), r.rampLoss(),
                                r.lastFirstLeafMs(), r.tailLoss(), r.firstLastLeafMs(), r.gapLoss(), r.wideStealAttempts(),
                                r.wideStealAttempts() + r.siteStealAttempts(), r.wideAreaFraction(), r.wideSteals(), startS,
                                PerfFiles.loadAverage(), r.answerCorrect() ? "" : " WRONG ANSWER");
                            log.println("  by site: " + r.bySite());
                            results.add(r);
                        }
                    }
                }
            }
        }
        return results;
    }

    private EfficiencyResult measure(
        final Cluster cluster, final WanRelay relay, final StealPolicy policy, final long delayMs, final int leafUs, final int round,
        final double idealMs) {
        final int nodes = topology.nodes();
        final int n = fibArgumentFor(idealMs, leafUs, nodes);
        final long leaves = parkedLeaves(n);
        final long relayedBefore = topology.relayedDatagrams(relay);
        final NetworkStatistics[] before = cluster.statistics();
        LeafProbe.startRun();
        final long startNs = System.nanoTime();
        final RunResult<Long> result = cluster.master().run(() -> new TimedFib(THRESHOLD, leafUs, compensatedLeaves).fib(n));
        final long endNs = System.nanoTime();
        final NetworkStatistics[] after = cluster.statistics();
        long site = 0;
        long wide = 0;
        long wideSteals = 0;
        for (int i = 0; i < nodes; i++) {
            final NetworkStatistics delta = after[i].minus(before[i]);
            site += delta.siteStealAttempts();
            wide += delta.wideAreaStealAttempts();
            wideSteals += delta.wideAreaSteals();
        }
        // Where the node-time went: nodes that parked no leaf lost the whole run to the ramp.
        final double nodeNs = (double)(endNs - startNs) * nodes;
        double parkedNs = 0;
        double rampNs = 0;
        double tailNs = 0;
        long lastFirstNs = 0;
        long firstLastNs = 0;
        final List<LeafProbe.Timeline> timelines = LeafProbe.currentRun();
        for (final LeafProbe.Timeline t : timelines) {
            parkedNs += t.parkedNs;
            rampNs += t.firstStartNs - startNs;
            tailNs += endNs - t.lastEndNs;
            lastFirstNs = Math.max(lastFirstNs, t.firstStartNs - startNs);
            firstLastNs = Math.max(firstLastNs, endNs - t.lastEndNs);
        }
        rampNs += (double)(nodes - timelines.size()) * (endNs - startNs);
        final StringBuilder bySite = new StringBuilder();
        for (int siteIndex = 0; siteIndex < topology.sites(); siteIndex++) {
            long firstMax = 0;
            long lastMin = Long.MAX_VALUE;
            long lastMax = 0;
            double lastSum = 0;
            int count = 0;
            for (final LeafProbe.Timeline t : timelines) {
                final int node = cluster.nodeOf(t.threadName);
                if (node >= 0 && topology.siteOf(node) == siteIndex) {
                    firstMax = Math.max(firstMax, t.firstStartNs - startNs);
                    lastMin = Math.min(lastMin, endNs - t.lastEndNs);
                    lastMax = Math.max(lastMax, endNs - t.lastEndNs);
                    lastSum += endNs - t.lastEndNs;
                    count++;
                }
            }
            bySite.append(String.format(Locale.ROOT, "%s%s: %d nodes, first leaves by %.0f ms, last leaves %.0f-%.0f ms (mean %.0f) before the end",
                siteIndex == 0 ? "" : "; ", (char)('A' + siteIndex), count, firstMax / 1e6, count == 0 ? 0 : lastMin / 1e6, lastMax / 1e6,
                count == 0 ? 0 : lastSum / count / 1e6));
        }

        final double nominalNs = leaves * (double)leafUs * 1000.0;
        final double overshoot = (parkedNs - nominalNs) / nodeNs;
        final double ramp = rampNs / nodeNs;
        final double tail = tailNs / nodeNs;
        final double gaps = 1.0 - nominalNs / nodeNs - overshoot - ramp - tail;
        final boolean correct = result.value() == FibSequential.fibIterative(n) && timelines.stream().mapToLong(t -> t.leaves).sum() == leaves;
        return new EfficiencyResult(policy, delayMs, leafUs, round, nodes, n, leaves, correct, (endNs - startNs) / 1e6,
            leaves * (double)leafUs / 1000.0 / nodes, parkedNs / 1e6, overshoot, ramp, tail, gaps, lastFirstNs / 1e6, firstLastNs / 1e6,
            site, wide, wideSteals, topology.relayedDatagrams(relay) - relayedBefore, bySite.toString());
    }

    /** All nodes of one topology in this JVM; node 0 (site A) hosts the registry and is the master. */
    static final class Cluster implements AutoCloseable {
        private final DivvyNode[] nodes;
        /** Worker thread name -> node index, told apart by the threads each node's start added. */
        private final Map<String, Integer> nodeOfWorker = new HashMap<>();

        private Cluster(final DivvyNode[] nodes) {
            this.nodes = nodes;
        }

        private static Set<String> workerThreadNames() {
            final Set<String> names = new HashSet<>();
            for (final Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().contains("-worker-")) {
                    names.add(t.getName());
                }
            }
            return names;
        }

        /** The node whose worker runs on the thread named {@code threadName}, or -1. */
        int nodeOf(final String threadName) {
            return nodeOfWorker.getOrDefault(threadName, -1);
        }

        static Cluster start(final WanTopology topology, final WanRelay relay, final StealPolicy policy,
            final NodeConfig base) {
            final DivvyNode[] nodes = new DivvyNode[topology.nodes()];
            final Cluster cluster = new Cluster(nodes);
            try {
                for (int i = 0; i < nodes.length; i++) {
                    final NodeConfig config = base.toBuilder().workers(1).networked(true)
                        .bind(WanTopology.HOST).port(topology.port(i))
                        .join(i == 0 ? null : topology.endpoint(0))
                        .site(topology.siteName(i)).policy(policy)
                        .termLengthBytes(TERM_LENGTH_BYTES)
                        // Many nodes share two cores here: be lenient so a descheduled node is not declared dead.
                        .heartbeatIntervalMs(200).acceptableHeartbeatPauseMs(10_000).joinTimeoutMs(30_000)
                        .peerRoutes(relay == null ? java.util.Map.of() : topology.routesOf(i, relay))
                        .build();
                    final Set<String> before = workerThreadNames();
                    nodes[i] = DivvyNode.start(config);
                    for (final String name : workerThreadNames()) {
                        if (!before.contains(name)) {
                            cluster.nodeOfWorker.put(name, i);
                        }
                    }
                }
                nodes[0].awaitMembers(nodes.length, Duration.ofSeconds(60));
            } catch (final RuntimeException ex) {
                cluster.close();
                throw ex;
            }
            return cluster;
        }

        DivvyNode master() {
            return nodes[0];
        }

        NetworkStatistics[] statistics() {
            final NetworkStatistics[] stats = new NetworkStatistics[nodes.length];
            for (int i = 0; i < nodes.length; i++) {
                stats[i] = nodes[i].networkStatistics();
            }
            return stats;
        }

        /** Closes the workers in parallel (each waits briefly for its LEAVE to go out), then the master. */
        @Override
        public void close() {
            PerfNodes.closeJoinersThenFirst(nodes);
        }
    }
}
