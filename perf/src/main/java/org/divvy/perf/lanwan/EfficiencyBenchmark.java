package org.divvy.perf.lanwan;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.StealPolicy;
import org.divvy.examples.fib.Fib;
import org.divvy.examples.fib.FibSequential;
import org.divvy.examples.simulated.SimulatedLeaf;
import org.divvy.perf.wan.WanRelay;

/**
 * SIMULATED efficiency of RS vs CRS: all nodes run in this JVM (one worker each, each with its own
 * embedded media driver, fixed ports), a {@link WanRelay} delays every message between sites, and fib's
 * leaves park for {@code leafUs} instead of computing. Efficiency = (leaves x leafUs / nodes) / measured
 * time. Parked workers use no CPU, so two cores can host all nodes; the agents and the relay do the rest.
 */
final class EfficiencyBenchmark {
    /** Leaves are calls with n below this: fib(2) (and fib(1), fib(0) do not park), the finest grain. */
    static final int THRESHOLD = 3;
    private static final int TERM_LENGTH_BYTES = 64 * 1024;
    private static final int CALIBRATION_LEAVES = 50;

    private final WanTopology topology;
    /** Every node's settings before the benchmark's own. */
    private final NodeConfig base;
    private final PrintStream log;

    EfficiencyBenchmark(final WanTopology topology, final NodeConfig base, final PrintStream log) {
        this.topology = topology;
        this.base = base;
        this.log = log;
    }

    /** Leaves that park in {@code new Fib(THRESHOLD, us).fib(n)}. */
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

    /** Mean measured duration in µs of one parked leaf of {@code leafUs} on this thread. */
    static double calibrateLeafUs(final int leafUs) {
        final long start = System.nanoTime();
        for (int i = 0; i < CALIBRATION_LEAVES; i++) {
            SimulatedLeaf.park(leafUs);
        }
        return (System.nanoTime() - start) / 1000.0 / CALIBRATION_LEAVES;
    }

    /** Runs every (delay, policy, leaf time) combination; one fresh set of nodes per (delay, policy). */
    List<EfficiencyResult> run(final long[] delaysMs, final StealPolicy[] policies, final int[] leafUs, final double idealMs) {
        final double[] calibratedUs = new double[leafUs.length];
        for (int i = 0; i < leafUs.length; i++) {
            calibratedUs[i] = calibrateLeafUs(leafUs[i]);
            log.printf("calibration: a %d us leaf parks %.1f us on average%n", leafUs[i], calibratedUs[i]);
        }
        final List<EfficiencyResult> results = new ArrayList<>();
        for (final long delayMs : delaysMs) {
            for (final StealPolicy policy : policies) {
                try (WanRelay relay = topology.startRelay(delayMs); Cluster cluster = Cluster.start(topology, relay, policy, base)) {
                    for (int i = 0; i < leafUs.length; i++) {
                        final EfficiencyResult result = measure(cluster, relay, policy, delayMs, leafUs[i], calibratedUs[i], idealMs);
                        log.printf("SIMULATED %s delay=%d ms leaf=%d us nodes=%d fib(%d) leaves=%d: %.0f ms, ideal %.0f ms, " +
                                "efficiency %.3f (calibrated %.3f), wide-area steal requests %d of %d (%.3f)%s%n",
                            policy, delayMs, leafUs[i], result.nodes(), result.fibN(), result.leaves(), result.elapsedMs(),
                            result.idealMs(), result.efficiency(), result.calibratedEfficiency(), result.wideStealAttempts(),
                            result.wideStealAttempts() + result.siteStealAttempts(), result.wideAreaFraction(),
                            result.answerCorrect() ? "" : " WRONG ANSWER");
                        results.add(result);
                    }
                }
            }
        }
        return results;
    }

    private EfficiencyResult measure(
        final Cluster cluster, final WanRelay relay, final StealPolicy policy, final long delayMs, final int leafUs, final double calibratedUs,
        final double idealMs) {
        final int nodes = topology.nodes();
        final int n = fibArgumentFor(idealMs, leafUs, nodes);
        final long leaves = parkedLeaves(n);
        final long relayedBefore = topology.relayedDatagrams(relay);
        final NetworkStatistics[] before = cluster.statistics();
        final RunResult<Long> result = cluster.master().run(() -> new Fib(THRESHOLD, leafUs).fib(n));
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
        final boolean correct = result.value() == FibSequential.fibIterative(n);
        return new EfficiencyResult(policy, delayMs, leafUs, nodes, n, leaves, correct,
            result.elapsedNs() / 1e6, leaves * (double)leafUs / 1000.0 / nodes, leaves * calibratedUs / 1000.0 / nodes,
            site, wide, wideSteals, topology.relayedDatagrams(relay) - relayedBefore);
    }

    /** All nodes of one topology in this JVM; node 0 (site A) hosts the registry and is the master. */
    static final class Cluster implements AutoCloseable {
        private final DivvyNode[] nodes;

        private Cluster(final DivvyNode[] nodes) {
            this.nodes = nodes;
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
                    nodes[i] = DivvyNode.start(config);
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
            final List<Thread> closers = new ArrayList<>();
            for (int i = 1; i < nodes.length; i++) {
                final DivvyNode node = nodes[i];
                if (node != null) {
                    final Thread t = new Thread(node::close, "close-node-" + i);
                    t.start();
                    closers.add(t);
                }
            }
            for (final Thread t : closers) {
                try {
                    t.join(TimeUnit.SECONDS.toMillis(30));
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            if (nodes[0] != null) {
                nodes[0].close();
            }
        }
    }
}
