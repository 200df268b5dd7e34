package org.divvy.examples.uts;

import java.util.List;
import java.util.Optional;

/**
 * The small sample trees of the UTS distribution ({@code sample_trees.sh}) with their published
 * statistics; a run of one of these trees is checked against them.
 */
public final class UtsSamples {
    /**
     * One sample tree.
     *
     * @param name     the name in {@code sample_trees.sh}
     * @param tree     its parameters
     * @param expected its published node count, leaf count and depth
     */
    public record Sample(String name, UtsTree tree, Counts expected) {
    }

    /** T1..T5, about four million nodes each. */
    public static final List<Sample> SAMPLES = List.of(
        new Sample("T1", new UtsTree(1, 3, 10, 4, 19, 0.0, 0, 0.5), new Counts(4_130_071, 3_305_118, 10)),
        new Sample("T2", new UtsTree(1, 2, 16, 6, 502, 0.0, 0, 0.5), new Counts(4_117_769, 2_342_762, 81)),
        new Sample("T3", new UtsTree(0, 0, 6, 2000, 42, 0.124875, 8, 0.5), new Counts(4_112_897, 3_599_034, 1572)),
        new Sample("T4", new UtsTree(2, 0, 16, 6, 1, 0.234375, 4, 0.5), new Counts(4_132_453, 3_108_986, 134)),
        new Sample("T5", new UtsTree(1, 0, 20, 4, 34, 0.0, 0, 0.5), new Counts(4_147_582, 2_181_318, 20)));

    private UtsSamples() {
    }

    /** The sample called {@code name} (case-insensitive), if there is one. */
    public static Optional<Sample> byName(final String name) {
        return SAMPLES.stream().filter(s -> s.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The sample whose tree is {@code tree}, if any. Parameters a tree type ignores (the binomial ones
     * of a geometric tree, the shape of a binomial tree) are ignored in the comparison.
     */
    public static Optional<Sample> matching(final UtsTree tree) {
        return SAMPLES.stream().filter(s -> sameTree(s.tree(), tree)).findFirst();
    }

    private static boolean sameTree(final UtsTree a, final UtsTree b) {
        if (a.type() != b.type() || a.rootBranching() != b.rootBranching() || a.rootSeed() != b.rootSeed()) {
            return false;
        }
        final boolean geometricPart = a.type() != UtsTree.BINOMIAL;
        final boolean binomialPart = a.type() != UtsTree.GEOMETRIC;
        return (!geometricPart || (a.shape() == b.shape() && a.maxDepth() == b.maxDepth()))
            && (!binomialPart || (a.nonLeafProbability() == b.nonLeafProbability()
                && a.nonLeafChildren() == b.nonLeafChildren()))
            && (a.type() != UtsTree.HYBRID || a.shiftDepth() == b.shiftDepth());
    }
}
