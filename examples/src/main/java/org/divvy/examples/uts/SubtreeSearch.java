package org.divvy.examples.uts;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The UTS kernel: counts a subtree, generating it depth first with the JDK's SHA-1. One per thread (it holds a
 * digest and the states of the path it is on); {@link UtsSequential} and every job at {@link Uts}'s spawn depth
 * make one. Nothing is allocated per node:
 *
 * <ul>
 *   <li>the states of the current path sit in one byte array, a 24-byte slot per level: the node's 20-byte state,
 *       then the 4-byte child index it is hashed with, so a child's state is one digest of the parent's slot,
 *       written straight into the next slot;</li>
 *   <li>a node's number of children comes from the tree's {@link ChildCountTable} (integer compares);</li>
 *   <li>the counts are three fields, not a {@link Counts} per node;</li>
 *   <li>children at a height where every node is a leaf (a fixed geometric tree's depth limit, three quarters of
 *       its nodes) are counted without their digests: nothing about them depends on their state.</li>
 * </ul>
 */
public final class SubtreeSearch {
    /** Bytes per level of the path: a state, then the child index hashed with it. */
    private static final int SLOT_BYTES = Sha1Rng.SPAWN_MESSAGE_BYTES;

    private final ChildCountTable table;
    private final MessageDigest sha1 = Sha1Rng.newDigest();
    private byte[] path = new byte[SLOT_BYTES * 32];
    private long nodes;
    private long leaves;
    private int maxDepth;

    /** A search of trees described by {@code table}. */
    public SubtreeSearch(final ChildCountTable table) {
        this.table = table;
    }

    /** Counts the subtree of the node with {@code state} at {@code height}. */
    public Counts search(final int[] state, final int height) {
        nodes = 0;
        leaves = 0;
        maxDepth = height;
        Sha1Rng.writeState(state, path, 0);
        visit(0, height);
        return new Counts(nodes, leaves, maxDepth);
    }

    /** Counts the node whose state is in slot {@code level} of the path, at {@code height}, and its subtree. */
    private void visit(final int level, final int height) {
        nodes++;
        final int offset = level * SLOT_BYTES;
        final int children = table.numChildren(Sha1Rng.rand(path, offset), height);
        if (children <= 0) {
            // As the reference: a count of 0 is a leaf (a negative one, which no valid tree gives, is neither).
            leaves += children == 0 ? 1 : 0;
            maxDepth = Math.max(maxDepth, height);
            return;
        }
        if (table.isAlwaysLeaf(height + 1)) {
            nodes += children;
            leaves += children;
            maxDepth = Math.max(maxDepth, height + 1);
            return;
        }
        if (offset + 2 * SLOT_BYTES > path.length) {
            path = Arrays.copyOf(path, path.length * 2);
        }
        for (int i = 0; i < children; i++) {
            // path, not a copy of it in a local: a deeper level may have grown it
            Sha1Rng.putInt(path, offset + Sha1Rng.STATE_BYTES, i);
            Sha1Rng.spawnInPlace(sha1, path, offset, offset + SLOT_BYTES);
            visit(level + 1, height + 1);
        }
    }
}
