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
        int children;
        switch (type) {
            case BINOMIAL:
                children = height == 0 ? (int)Math.floor(rootBranching) : binomialChildren(state);
                break;
            case GEOMETRIC:
                children = geometricChildren(state, height);
                break;
            case HYBRID:
                children = height < shiftDepth * maxDepth ? geometricChildren(state, height) : binomialChildren(state);
                break;
            default:
                throw new IllegalStateException("tree type=" + type + ", must be 0, 1 or 2");
        }
        if (height == 0 && type == BINOMIAL) {
            return Math.min(children, (int)Math.ceil(rootBranching));
        }
        return Math.min(children, MAX_CHILDREN);
    }

    private int binomialChildren(final int[] state) {
        return Sha1Rng.toProbability(state) < nonLeafProbability ? nonLeafChildren : 0;
    }

    /**
     * A geometric number of children whose mean is the shape's target branching factor at this depth.
     * StrictMath (fdlibm), so every node and JIT tier computes the same count.
     */
    private int geometricChildren(final int[] state, final int height) {
        double branching = rootBranching;
        if (height > 0) {
            switch (shape) {
                case EXPDEC:
                    branching = rootBranching * StrictMath.pow(height,
                        -StrictMath.log(rootBranching) / StrictMath.log(maxDepth));
                    break;
                case CYCLIC:
                    branching = height > 5 * maxDepth
                        ? 0.0
                        : StrictMath.pow(rootBranching, StrictMath.sin(2.0 * 3.141592653589793 * height / maxDepth));
                    break;
                case FIXED:
                    branching = height < maxDepth ? rootBranching : 0;
                    break;
                case LINEAR:
                default:
                    branching = rootBranching * (1.0 - (double)height / maxDepth);
                    break;
            }
        }
        final double p = 1.0 / (1.0 + branching);
        final double u = Sha1Rng.toProbability(state);
        return (int)Math.floor(StrictMath.log(1 - u) / StrictMath.log(1 - p));
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
