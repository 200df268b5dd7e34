package org.divvy.examples.uts;

import java.util.Optional;

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

/**
 * The {@code uts} command: the Unbalanced Tree Search benchmark with the reference code's flags.
 * Without flags it counts sample tree T1; {@code --tree T3} picks another sample; any flag given
 * overrides the sample's value.
 */
@Command(name = "uts", mixinStandardHelpOptions = true,
    description = "Unbalanced Tree Search (Olivier et al., LCPC 2006) with the SHA-1 splittable RNG; "
        + "trees T1..T5 of sample_trees.sh are checked against their published counts.")
public final class UtsApp implements ExampleApp {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    SimulationOptions simulation = new SimulationOptions();

    @Option(names = "--tree", paramLabel = "NAME",
        description = "start from sample tree T1..T5 (default: ${DEFAULT-VALUE})")
    String sample = "T1";

    @Option(names = "-t", paramLabel = "TYPE",
        description = "tree type: 0 binomial, 1 geometric, 2 hybrid (default: from --tree)")
    Integer type;

    @Option(names = "-a", paramLabel = "SHAPE",
        description = "geometric shape: 0 linear, 1 expdec, 2 cyclic, 3 fixed (default: from --tree)")
    Integer shape;

    @Option(names = "-d", paramLabel = "DEPTH", description = "geometric target depth (gen_mx) (default: from --tree)")
    Integer maxDepth;

    @Option(names = "-b", paramLabel = "B0", description = "root branching factor (default: from --tree)")
    Double rootBranching;

    @Option(names = "-r", paramLabel = "SEED", description = "root seed (default: from --tree)")
    Integer rootSeed;

    @Option(names = "-q", paramLabel = "Q",
        description = "binomial: probability of a non-leaf node (default: from --tree)")
    Double nonLeafProbability;

    @Option(names = "-m", paramLabel = "M",
        description = "binomial: children of a non-leaf node (default: from --tree)")
    Integer nonLeafChildren;

    @Option(names = "-f", paramLabel = "F",
        description = "hybrid: switch to binomial at depth F * gen_mx (default: from --tree)")
    Double shiftDepth;

    @Option(names = "--spawn-depth", paramLabel = "H",
        description = "nodes above height H spawn one job per child, deeper subtrees run sequentially "
            + "(default: 6 for geometric trees, 1000000 for binomial and hybrid trees, whose subtrees are "
            + "too unbalanced for a cut at a fixed height)")
    Integer spawnDepth;

    public UtsApp() {
    }

    /** A run of sample tree {@code sample} with the given spawn depth (null: the default). */
    public UtsApp(final String sample, final Integer spawnDepth) {
        this.sample = sample;
        this.spawnDepth = spawnDepth;
    }

    @Override
    public String name() {
        return "uts";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    /** The tree the options describe: the sample's parameters, overridden by the flags given. */
    public UtsTree tree() {
        final UtsTree base = UtsSamples.byName(sample)
            .orElseThrow(() -> new IllegalArgumentException("--tree=" + sample + ", must be one of T1..T5"))
            .tree();
        return new UtsTree(
            type != null ? type : base.type(),
            shape != null ? shape : base.shape(),
            maxDepth != null ? maxDepth : base.maxDepth(),
            rootBranching != null ? rootBranching : base.rootBranching(),
            rootSeed != null ? rootSeed : base.rootSeed(),
            nonLeafProbability != null ? nonLeafProbability : base.nonLeafProbability(),
            nonLeafChildren != null ? nonLeafChildren : base.nonLeafChildren(),
            shiftDepth != null ? shiftDepth : base.shiftDepth());
    }

    /** The spawn depth given, or the default for the tree's type. */
    public int spawnDepth(final UtsTree tree) {
        if (spawnDepth != null) {
            return spawnDepth;
        }
        return tree.type() == UtsTree.GEOMETRIC ? 6 : 1_000_000;
    }

    @Override
    public void validate() {
        final UtsTree tree = tree();
        Options.inRange("-t", tree.type(), 0, 2);
        Options.inRange("-a", tree.shape(), 0, 3);
        Options.atLeast("-d", tree.maxDepth(), 1);
        Options.inRange("-b", tree.rootBranching(), 0.0, 1e9);
        Options.inRange("-q", tree.nonLeafProbability(), 0.0, 1.0);
        Options.atLeast("-m", tree.nonLeafChildren(), 0);
        Options.inRange("-f", tree.shiftDepth(), 0.0, 1.0);
        Options.atLeast("--spawn-depth", spawnDepth(tree), 0);
        simulation.validate(common.sequential());
    }

    @Override
    public Problem<Counts> prepare() {
        validate();
        final UtsTree tree = tree();
        final int depth = spawnDepth(tree);
        final Optional<UtsSamples.Sample> known = UtsSamples.matching(tree);
        final int leafUs = simulation.leafUs();
        return new Problem<>() {
            @Override
            public Root<Counts> root() {
                return new Uts(tree, depth, leafUs).searchTree();
            }

            @Override
            public Counts solveSequential() {
                return UtsSequential.search(tree);
            }

            @Override
            public Check check(final Counts answer) {
                if (leafUs > 0) {
                    final Counts truncated = UtsSequential.searchTruncated(tree, depth);
                    return answer.equals(truncated)
                        ? Check.pass("equals the tree cut at height " + depth + ", searched sequentially ("
                            + SimulationOptions.BANNER + ")")
                        : Check.fail("expected " + truncated + " (the tree cut at height " + depth + "), got "
                            + answer);
                }
                if (known.isEmpty()) {
                    return Check.unchecked("no published counts for " + tree.flags()
                        + " (samples: T1..T5 of sample_trees.sh)");
                }
                final UtsSamples.Sample sample = known.get();
                return answer.equals(sample.expected())
                    ? Check.pass("equals the published counts of sample tree " + sample.name())
                    : Check.fail("expected " + sample.expected() + " (sample tree " + sample.name() + "), got "
                        + answer);
            }

            @Override
            public String describe(final Counts answer) {
                return "tree " + tree.flags() + ": " + answer.nodes() + " nodes, " + answer.leaves() + " leaves, depth "
                    + answer.maxDepth() + SimulationOptions.note(leafUs);
            }
        };
    }
}
