package org.divvy.perf.uts;

import java.io.PrintStream;
import java.util.Arrays;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.examples.uts.Counts;
import org.divvy.examples.uts.Uts;
import org.divvy.examples.uts.UtsSequential;
import org.divvy.examples.uts.UtsTree;

/**
 * The UTS kernel's rate on one core, in this JVM: the sequential search ({@link UtsSequential}) and the Divvy
 * version on a single node with one worker ({@link Uts}), alternating, after warm-up runs; the first run of each
 * (the JIT still compiling) is reported too. Every run's counts must equal the first sequential run's.
 */
final class KernelRate {
    /**
     * Medians and first runs, in nodes per second.
     *
     * @param counts the tree's counts
     * @param sequentialRounds the sequential rate of every timed round
     * @param divvyRounds      one Divvy worker's rate of every timed round
     */
    record Result(Counts counts, double sequentialFirst, double sequentialMedian, double divvyFirst, double divvyMedian,
        double[] sequentialRounds, double[] divvyRounds) {
    }

    private KernelRate() {
    }

    static Result measure(final UtsTree tree, final int spawnDepth, final int warmup, final int rounds,
        final PrintStream log) {
        final Counts expected;
        final double sequentialFirst;
        final double divvyFirst;
        final double[] sequential = new double[rounds];
        final double[] divvy = new double[rounds];
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            long startNs = System.nanoTime();
            expected = UtsSequential.search(tree);
            sequentialFirst = rate(expected, System.nanoTime() - startNs);
            divvyFirst = rate(expected, timedDivvy(node, tree, spawnDepth, expected));
            log.printf("kernel %s: first runs (JIT compiling): sequential %.1f M nodes/s, Divvy 1 worker %.1f M nodes/s%n",
                tree.flags(), sequentialFirst / 1e6, divvyFirst / 1e6);
            for (int i = 0; i < warmup; i++) {
                timedSequential(tree, expected);
                timedDivvy(node, tree, spawnDepth, expected);
            }
            for (int i = 0; i < rounds; i++) {
                sequential[i] = rate(expected, timedSequential(tree, expected));
                divvy[i] = rate(expected, timedDivvy(node, tree, spawnDepth, expected));
                log.printf("kernel round %d: sequential %.1f M nodes/s, Divvy 1 worker %.1f M nodes/s%n", i + 1,
                    sequential[i] / 1e6, divvy[i] / 1e6);
            }
        }
        return new Result(expected, sequentialFirst, median(sequential), divvyFirst, median(divvy), sequential, divvy);
    }

    private static long timedSequential(final UtsTree tree, final Counts expected) {
        final long startNs = System.nanoTime();
        check("sequential", UtsSequential.search(tree), expected);
        return System.nanoTime() - startNs;
    }

    private static long timedDivvy(final DivvyNode node, final UtsTree tree, final int spawnDepth, final Counts expected) {
        final long startNs = System.nanoTime();
        check("Divvy", node.run(new Uts(tree, spawnDepth).searchTree()).value(), expected);
        return System.nanoTime() - startNs;
    }

    private static void check(final String who, final Counts answer, final Counts expected) {
        if (!answer.equals(expected)) {
            throw new IllegalStateException(who + " counted " + answer + ", expected " + expected);
        }
    }

    private static double rate(final Counts counts, final long elapsedNs) {
        return counts.nodes() / (elapsedNs / 1e9);
    }

    static double min(final double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    static double max(final double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    static double median(final double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
