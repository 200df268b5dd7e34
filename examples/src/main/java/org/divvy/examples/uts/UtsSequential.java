package org.divvy.examples.uts;

/** UTS, sequentially: a depth-first search that generates and counts the tree. */
public final class UtsSequential {
    private UtsSequential() {
    }

    /** Counts the whole tree. */
    public static Counts search(final UtsTree tree) {
        return search(tree, Sha1Rng.init(tree.rootSeed()), 0);
    }

    /** Counts the subtree of the node with {@code state} at {@code height}. */
    public static Counts search(final UtsTree tree, final int[] state, final int height) {
        final int children = tree.numChildren(state, height);
        if (children == 0) {
            return Counts.leaf(height);
        }
        long nodes = 1;
        long leaves = 0;
        int maxDepth = height;
        for (int i = 0; i < children; i++) {
            final Counts child = search(tree, Sha1Rng.spawn(state, i), height + 1);
            nodes += child.nodes();
            leaves += child.leaves();
            maxDepth = Math.max(maxDepth, child.maxDepth());
        }
        return new Counts(nodes, leaves, maxDepth);
    }
}
