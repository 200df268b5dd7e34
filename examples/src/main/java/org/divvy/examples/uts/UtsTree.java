package org.divvy.examples.uts;

/**
 * The parameters of one UTS tree, as the reference {@code uts.c} defines them, and the rule that gives
 * a node its number of children. A record, so it travels with stolen jobs.
 *
 * @param type             0 binomial, 1 geometric, 2 hybrid (geometric near the root, binomial below)
 * @param shape            geometric shape: 0 linear decrease, 1 exponential decrease, 2 cyclic, 3 fixed
 * @param maxDepth         {@code gen_mx}, the depth the geometric shapes aim at ({@code -d})
 * @param rootBranching    {@code b_0}, the root's branching factor ({@code -b})
 * @param rootSeed         {@code -r}
 * @param nonLeafProbability binomial: probability that a node has children ({@code -q})
 * @param nonLeafChildren  binomial: number of children of a non-leaf ({@code -m})
 * @param shiftDepth       hybrid: fraction of {@code maxDepth} at which the tree turns binomial
 */
public record UtsTree(int type, int shape, int maxDepth, double rootBranching, int rootSeed,
    double nonLeafProbability, int nonLeafChildren, double shiftDepth) {

    public static final int BINOMIAL = 0;
    public static final int GEOMETRIC = 1;
    public static final int HYBRID = 2;

    public static final int LINEAR = 0;
    public static final int EXPDEC = 1;
    public static final int CYCLIC = 2;
    public static final int FIXED = 3;

    /** {@code MAXNUMCHILDREN} of the reference: no node but a binomial root has more children. */
    public static final int MAX_CHILDREN = 100;

    /** The number of children of the node with {@code state} at {@code height} (root: 0). */
    public int numChildren(final int[] state, final int height) {
        return numChildren(Sha1Rng.rand(state), height);
    }

    /**
     * The number of children of a node at {@code height} whose random number ({@code rng_rand} of its state, 31
     * bits) is {@code random}: the reference's rule, evaluated as written. {@link ChildCountTable} gives the same
     * numbers from a table.
     */
    public int numChildren(final int random, final int height) {
        int children;
        switch (type) {
            case BINOMIAL:
                children = height == 0 ? (int)Math.floor(rootBranching) : binomialChildren(random);
                break;
            case GEOMETRIC:
                children = geometricChildren(geometricBranching(height), random);
                break;
            case HYBRID:
                children = isGeometricAt(height)
                    ? geometricChildren(geometricBranching(height), random)
                    : binomialChildren(random);
                break;
            default:
                throw new IllegalStateException("tree type=" + type + ", must be 0, 1 or 2");
        }
        if (height == 0 && type == BINOMIAL) {
            return Math.min(children, (int)Math.ceil(rootBranching));
        }
        return Math.min(children, MAX_CHILDREN);
    }

    /** Whether a node at {@code height} draws its children from the geometric distribution (else binomial). */
    boolean isGeometricAt(final int height) {
        return type == GEOMETRIC || (type == HYBRID && height < shiftDepth * maxDepth);
    }

    private int binomialChildren(final int random) {
        return Sha1Rng.toProbability(random) < nonLeafProbability ? nonLeafChildren : 0;
    }

    /** The shape's target branching factor (mean number of children) at {@code height}. */
    double geometricBranching(final int height) {
        if (height == 0) {
            return rootBranching;
        }
        switch (shape) {
            case EXPDEC:
                return rootBranching * StrictMath.pow(height, -StrictMath.log(rootBranching) / StrictMath.log(maxDepth));
            case CYCLIC:
                return height > 5 * maxDepth
                    ? 0.0
                    : StrictMath.pow(rootBranching, StrictMath.sin(2.0 * 3.141592653589793 * height / maxDepth));
            case FIXED:
                return height < maxDepth ? rootBranching : 0;
            case LINEAR:
            default:
                return rootBranching * (1.0 - (double)height / maxDepth);
        }
    }

    /**
     * A geometric number of children with mean {@code branching} for a node with random number {@code random},
     * capped at {@link #MAX_CHILDREN}. StrictMath (fdlibm), so every node and JIT tier computes the same count.
     */
    static int geometricChildren(final double branching, final int random) {
        final double p = 1.0 / (1.0 + branching);
        final double u = Sha1Rng.toProbability(random);
        return Math.min((int)Math.floor(StrictMath.log(1 - u) / StrictMath.log(1 - p)), MAX_CHILDREN);
    }

    /** The command-line flags of the reference code that describe this tree. */
    public String flags() {
        return switch (type) {
            case BINOMIAL -> "-t 0 -b " + fmt(rootBranching) + " -q " + nonLeafProbability + " -m " + nonLeafChildren
                + " -r " + rootSeed;
            case GEOMETRIC -> "-t 1 -a " + shape + " -d " + maxDepth + " -b " + fmt(rootBranching) + " -r " + rootSeed;
            default -> "-t 2 -a " + shape + " -d " + maxDepth + " -b " + fmt(rootBranching) + " -q " + nonLeafProbability
                + " -m " + nonLeafChildren + " -r " + rootSeed + " -f " + shiftDepth;
        };
    }

    private static String fmt(final double value) {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }
}
