package org.divvy.examples.uts;

/**
 * What a search of a (sub)tree found.
 *
 * @param nodes    nodes in the subtree, its root included
 * @param leaves   nodes without children
 * @param maxDepth the greatest height of a node in the subtree (the root of the whole tree is at 0)
 */
public record Counts(long nodes, long leaves, int maxDepth) {
    /** A single leaf at {@code height}. */
    public static Counts leaf(final int height) {
        return new Counts(1, 1, height);
    }

    /** These counts plus those of a sibling subtree. */
    public Counts plus(final Counts other) {
        return new Counts(nodes + other.nodes, leaves + other.leaves, Math.max(maxDepth, other.maxDepth));
    }
}
