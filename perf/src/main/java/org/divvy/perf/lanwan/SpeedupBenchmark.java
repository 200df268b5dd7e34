package org.divvy.perf.lanwan;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.RunResult;
import org.divvy.Setting;
import org.divvy.examples.Check;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Problem;
import org.divvy.examples.Verdict;
import org.divvy.examples.fib.FibApp;
import org.divvy.examples.mergesort.MergeSortApp;
import org.divvy.examples.nqueens.NQueensApp;
import org.divvy.examples.raytracer.RayTracerApp;
import org.divvy.examples.uts.UtsApp;

/**
 * Speedup of the real examples (no simulation) on 2 nodes x 1 worker over 1 node x 1 worker. Both node
 * sets live in this JVM and talk over loopback Aeron (the 2-node set) exactly like two processes would;
 * the runs alternate (1 node, 2 nodes) per round and the median of each is kept.
 */
final class SpeedupBenchmark {
    private final int basePort;
    /** Every node's settings before the benchmark's own. */
    private final NodeConfig base;
    private final PrintStream log;

    SpeedupBenchmark(final int basePort, final NodeConfig base, final PrintStream log) {
        this.basePort = basePort;
        this.base = base;
        this.log = log;
    }

    record Result(List<String> apps, double[] oneNodeMs, double[] twoNodesMs) {
        double[] speedups() {
            final double[] s = new double[apps.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = oneNodeMs[i] / twoNodesMs[i];
            }
            return s;
        }

        void addTo(final LanWanCsv csv) {
            final double[] s = speedups();
            for (int i = 0; i < s.length; i++) {
                final String note = "real work; in-process nodes over loopback Aeron; median";
                csv.add("speedup", apps.get(i), "one_node_1_worker", oneNodeMs[i], "ms", note);
                csv.add("speedup", apps.get(i), "two_nodes_1_worker_each", twoNodesMs[i], "ms", note);
                csv.add("speedup", apps.get(i), "speedup", s[i], "ratio", note);
            }
        }
    }

    static List<ExampleApp> apps(final boolean quick) {
        if (quick) {
            return List.of(new FibApp(24, 12), new NQueensApp(8, 3), new MergeSortApp(20_000, 2_000, 42),
                new RayTracerApp(64, 48, 1, 16 * 16));
        }
        return List.of(new FibApp(40, 20), new NQueensApp(14, 4), new UtsApp("T1", null),
            new MergeSortApp(10_000_000, 100_000, 42), new RayTracerApp(640, 480, 2, 64 * 64));
    }

    Result run(final boolean quick, final int rounds) {
        final List<ExampleApp> apps = apps(quick);
        final List<String> names = new ArrayList<>();
        final double[] one = new double[apps.size()];
        final double[] two = new double[apps.size()];
        try (DivvyNode single = DivvyNode.start(singleNode());
            DivvyNode worker2Host = startNetworked(0);
            DivvyNode worker2 = startNetworked(1)) {
            worker2Host.awaitMembers(2, Duration.ofSeconds(30));
            for (int a = 0; a < apps.size(); a++) {
                final ExampleApp app = apps.get(a);
                names.add(app.name());
                final Problem<?> problem = app.prepare();
                final double[] oneMs = new double[rounds];
                final double[] twoMs = new double[rounds];
                timed(single, problem); // warm-up of both, untimed
                timed(worker2Host, problem);
                for (int r = 0; r < rounds; r++) {
                    oneMs[r] = timed(single, problem);
                    twoMs[r] = timed(worker2Host, problem);
                }
                one[a] = median(oneMs);
                two[a] = median(twoMs);
                log.printf("speedup %s: 1 node x 1 worker %.1f ms, 2 nodes x 1 worker %.1f ms, speedup %.2f%n",
                    app.name(), one[a], two[a], one[a] / two[a]);
            }
        }
        return new Result(names, one, two);
    }

    /** The 1-node reference: {@code base}'s settings of every node (idle, stack), none of its network ones. */
    private NodeConfig singleNode() {
        final NodeConfig.Builder single = NodeConfig.builder();
        for (final Setting<?> setting : NodeSettings.ALL) {
            if (setting.scope() == Setting.Scope.NODE && setting != NodeSettings.NETWORKED) {
                copy(setting, single);
            }
        }
        return single.workers(1).build();
    }

    private <T> void copy(final Setting<T> setting, final NodeConfig.Builder to) {
        to.set(setting, base.get(setting));
    }

    private DivvyNode startNetworked(final int index) {
        return DivvyNode.start(base.toBuilder().workers(1).networked(true).bind(WanTopology.HOST).port(basePort + index)
            .join(index == 0 ? null : WanTopology.HOST + ":" + basePort).site("A").build());
    }

    private static <T> double timed(final DivvyNode node, final Problem<T> problem) {
        final RunResult<T> result = node.run(problem.root());
        final Check check = problem.check(result.value());
        if (check.verdict() == Verdict.FAIL) {
            throw new IllegalStateException("wrong answer: " + check.detail());
        }
        return result.elapsedNs() / 1e6;
    }

    private static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
