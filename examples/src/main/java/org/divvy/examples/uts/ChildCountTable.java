package org.divvy.examples.uts;

import java.util.Arrays;

/**
 * A tree's rule for the number of children, as a table per height, so the search's inner loop compares its
 * random number with a few integers instead of taking two fdlibm logarithms per node.
 *
 * <p>At a geometric height the count is {@code floor(log(1 - r/2^31) / log(1 - p))}, capped at
 * {@link UtsTree#MAX_CHILDREN}: with {@code log(1 - p) < 0} it never decreases as the random number {@code r}
 * grows (consecutive {@code r} change {@code log(1 - r/2^31)} by at least {@code 2^-31}, far more than the
 * logarithm's error of under an ulp, at most {@code 2^-48} here, so the computed values keep their order). So it is
 * a step function, given exactly by its steps: {@code thresholds[h][k - 1]} is the least {@code r} whose count is
 * at least {@code k}, each found by evaluating the reference's formula itself ({@link UtsTree#geometricChildren}),
 * so the table gives the very counts the formula gives, for every {@code r}. Other heights (binomial ones,
 * degenerate branching factors, heights past the table) use the formula.
 *
 * <p>It also says which heights draw no children whatever their random number (a fixed-shape tree's depth
 * limit): a node there needs no digest of its own, and most of a fixed geometric tree's nodes are there.
 *
 * <p>Immutable once built; built once per tree and shared by every thread that searches it.
 */
public final class ChildCountTable {
    private static final int LARGEST_RANDOM = Integer.MAX_VALUE;
    /** Heights tabulated at most: past {@code 5 * maxDepth} a cyclic tree has no children; others die out sooner. */
    private static final int MAX_TABULATED_HEIGHTS = 4096;

    private final UtsTree tree;
    /** Per height: the least random number for 1, 2, ... children; null where the formula is used instead. */
    private final int[][] thresholds;
    /** Per height: whether every node at that height is a leaf. */
    private final boolean[] alwaysLeaf;

    private ChildCountTable(final UtsTree tree, final int[][] thresholds, final boolean[] alwaysLeaf) {
        this.tree = tree;
        this.thresholds = thresholds;
        this.alwaysLeaf = alwaysLeaf;
    }

    /** The table of {@code tree}; costs a few hundred logarithms per distinct branching factor. */
    public static ChildCountTable of(final UtsTree tree) {
        final int heights = (int)Math.min(MAX_TABULATED_HEIGHTS, 5L * Math.max(tree.maxDepth(), 0) + 2);
        final int[][] thresholds = new int[heights][];
        final boolean[] alwaysLeaf = new boolean[heights];
        double previousBranching = Double.NaN;
        int[] previous = null;
        for (int height = 0; height < heights; height++) {
            if (tree.isGeometricAt(height)) {
                final double branching = tree.geometricBranching(height);
                // A fixed shape has one branching factor down to its depth limit: one table serves them all.
                thresholds[height] = Double.compare(branching, previousBranching) == 0 ? previous : steps(branching);
                previousBranching = branching;
                previous = thresholds[height];
                alwaysLeaf[height] = thresholds[height] != null && thresholds[height].length == 0;
            } else if (height > 0 || tree.type() != UtsTree.BINOMIAL) {
                // prob < q is never true for q <= 0 (or NaN); m = 0 children are none either.
                alwaysLeaf[height] = !(tree.nonLeafProbability() > 0) || tree.nonLeafChildren() == 0;
            }
        }
        return new ChildCountTable(tree, thresholds, alwaysLeaf);
    }

    /** The tree this table describes. */
    public UtsTree tree() {
        return tree;
    }

    /** The number of children of a node at {@code height} with random number {@code random}. */
    public int numChildren(final int random, final int height) {
        if (height < thresholds.length) {
            final int[] steps = thresholds[height];
            if (steps != null) {
                int children = 0;
                while (children < steps.length && random >= steps[children]) {
                    children++;
                }
                return children;
            }
        }
        return tree.numChildren(random, height);
    }

    /** Whether every node at {@code height} is a leaf, whatever its state. */
    public boolean isAlwaysLeaf(final int height) {
        return height < alwaysLeaf.length && alwaysLeaf[height];
    }

    /** Whether {@code height} uses a table rather than the formula (for tests: the table is actually used). */
    boolean isTabulated(final int height) {
        return height < thresholds.length && thresholds[height] != null;
    }

    /** The steps of the geometric count with mean {@code branching}; null if it is not a non-decreasing step function. */
    private static int[] steps(final double branching) {
        final double p = 1.0 / (1.0 + branching);
        final double logOneMinusP = StrictMath.log(1 - p);
        if (!(logOneMinusP < 0)) {
            return null; // p <= 0 or NaN: the formula's count is not monotone (or not a number); evaluate it each time
        }
        final int[] steps = new int[UtsTree.MAX_CHILDREN];
        int count = 0;
        int low = 0;
        for (int k = 1; k <= UtsTree.MAX_CHILDREN; k++) {
            if (UtsTree.geometricChildren(branching, LARGEST_RANDOM) < k) {
                break;
            }
            low = step(branching, k, low, estimate(logOneMinusP, k));
            steps[count++] = low;
        }
        return Arrays.copyOf(steps, count);
    }

    /** Where the step to {@code k} children lies in exact arithmetic: {@code 2^31 (1 - (1 - p)^k)}. */
    private static long estimate(final double logOneMinusP, final int k) {
        return (long)Math.ceil(2147483648.0 * -Math.expm1(k * logOneMinusP));
    }

    /**
     * The least random number in {@code [low, 2^31)} with at least {@code k} children, given that the largest has:
     * a short search around {@code estimate} when the formula confirms it brackets the step, else a full one.
     */
    private static int step(final double branching, final int k, final int low, final long estimate) {
        final long below = estimate - 4;
        final long above = estimate + 4;
        if (below >= low && above <= LARGEST_RANDOM
            && UtsTree.geometricChildren(branching, (int)below) < k
            && UtsTree.geometricChildren(branching, (int)above) >= k) {
            return leastWithAtLeast(branching, k, (int)below + 1, (int)above);
        }
        return leastWithAtLeast(branching, k, low, LARGEST_RANDOM);
    }

    /** Binary search in {@code [from, to]}, where {@code to} has at least {@code k} children. */
    private static int leastWithAtLeast(final double branching, final int k, final int from, final int to) {
        int low = from;
        int high = to;
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (UtsTree.geometricChildren(branching, middle) >= k) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }
}
