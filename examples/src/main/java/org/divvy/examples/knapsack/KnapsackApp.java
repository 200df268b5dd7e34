package org.divvy.examples.knapsack;

import java.util.Locale;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import org.divvy.examples.cli.SimulationOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code knapsack} command. */
@Command(name = "knapsack", mixinStandardHelpOptions = true,
    description = "0/1 knapsack by branch and bound on a seeded random instance, spawning the take/leave "
        + "branches of the first items; checked against dynamic programming.")
public final class KnapsackApp implements ExampleApp {
    @Mixin
    CommonOptions common = new CommonOptions();

    /**
     * SIMULATED WORK for knapsack: the mean leaf job lasts {@code --simulate-leaf-us}; each leaf still searches, then
     * parks in proportion to the search nodes it visited (pruned at once: almost nothing; a big subtree: several
     * times the mean), so the tree keeps the real search's irregularity.
     */
    @Mixin
    SimulationOptions simulation = new SimulationOptions();

    @Option(names = "--items", paramLabel = "N",
        description = "number of items; the work grows about 1.9x per item (default: ${DEFAULT-VALUE})")
    int items = 33;

    @Option(names = "--weight-range", paramLabel = "R",
        description = "weights are even numbers in [2, 2R] (default: ${DEFAULT-VALUE})")
    int weightRange = 100_000;

    @Option(names = "--seed", description = "random seed of the instance (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--spawn-depth", paramLabel = "D",
        description = "decisions on the first D items are spawned, later ones run sequentially "
            + "(default: ${DEFAULT-VALUE})")
    int spawnDepth = 8;

    public KnapsackApp() {
    }

    public KnapsackApp(final int items, final long seed, final int spawnDepth) {
        this.items = items;
        this.seed = seed;
        this.spawnDepth = spawnDepth;
    }

    @Override
    public String name() {
        return "knapsack";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--items", items, 1, 200);
        // Keeps the total weight, and so the capacity, within an int and the reference DP table small.
        Options.inRange("--weight-range", weightRange, 1, 10_000_000 / items);
        Options.atLeast("--spawn-depth", spawnDepth, 0);
        simulation.validate(common.sequential());
    }

    @Override
    public Problem<Long> prepare() {
        validate();
        final KnapsackInstance instance = KnapsackInstance.random(items, weightRange, seed);
        final int depth = spawnDepth;
        final int leafUs = simulation.leafUs();
        // Untimed, on the submitting node: the rate that makes the mean leaf last leafUs (sent with every job).
        final LeafCensus census = leafUs > 0 ? LeafCensus.of(instance, depth) : null;
        final double nanosPerNode = census != null ? census.nanosPerNode(leafUs) : 0;
        return new Problem<>() {
            @Override
            public Root<Long> root() {
                return new Knapsack(instance, depth, nanosPerNode).solve(instance.capacity());
            }

            @Override
            public Long solveSequential() {
                return KnapsackSequential.solve(instance);
            }

            @Override
            public Check check(final Long answer) {
                return Check.equal(answer, KnapsackSequential.dynamicProgramming(instance), "dynamic programming");
            }

            @Override
            public String describe(final Long answer) {
                return "best value " + answer + " of " + instance.size() + " items, capacity " + instance.capacity()
                    + (census == null ? "" : simulatedNote(census, leafUs, nanosPerNode));
            }
        };
    }

    /** What a simulated run's answer line adds: the banner, the leaves and the simulated work they stand for. */
    private static String simulatedNote(final LeafCensus census, final int leafUs, final double nanosPerNode) {
        return String.format(Locale.ROOT, " -- %s: %d jobs, %d leaves; each leaf searched, then parked %.1f ns "
            + "per search node it visited (%d us on average, %.1f s of simulated work)", SimulationOptions.BANNER,
            census.jobs(), census.leaves(), nanosPerNode, leafUs, census.leaves() * (double)leafUs / 1e6);
    }
}
