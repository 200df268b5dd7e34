package org.divvy.examples.knapsack;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
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
    }

    @Override
    public Problem<Long> prepare() {
        validate();
        final KnapsackInstance instance = KnapsackInstance.random(items, weightRange, seed);
        final int depth = spawnDepth;
        return new Problem<>() {
            @Override
            public Root<Long> root() {
                return new Knapsack(instance, depth).solve(instance.capacity());
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
                return "best value " + answer + " of " + instance.size() + " items, capacity " + instance.capacity();
            }
        };
    }
}
