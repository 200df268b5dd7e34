package org.divvy.examples.uts;

/**
 * UTS, sequentially: a depth-first search that generates and counts the tree, with the kernel
 * ({@link SubtreeSearch}) that {@link Uts} runs below its spawn depth.
 */
public final class UtsSequential {
    private UtsSequential() {
    }

    /** Counts the whole tree. */
    public static Counts search(final UtsTree tree) {
        return new SubtreeSearch(ChildCountTable.of(tree)).search(Sha1Rng.init(tree.rootSeed()), 0);
    }

    /**
     * Counts the tree cut at {@code cutHeight}: a node at that height counts as a leaf, whatever its
     * children. The reference of a simulated run, whose jobs at the spawn depth park instead of searching.
     */
    public static Counts searchTruncated(final UtsTree tree, final int cutHeight) {
        return searchTruncated(tree, Sha1Rng.init(tree.rootSeed()), 0, cutHeight);
    }

    private static Counts searchTruncated(
        final UtsTree tree, final int[] state, final int height, final int cutHeight) {
        if (height >= cutHeight) {
            return Counts.leaf(height);
        }
        final int children = tree.numChildren(state, height);
        if (children == 0) {
            return Counts.leaf(height);
        }
        Counts counts = new Counts(1, 0, height);
        for (int i = 0; i < children; i++) {
            counts = counts.plus(searchTruncated(tree, Sha1Rng.spawn(state, i), height + 1, cutHeight));
        }
        return counts;
    }
}
