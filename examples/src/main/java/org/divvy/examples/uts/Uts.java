package org.divvy.examples.uts;

import java.util.ArrayList;
import java.util.List;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;
import org.divvy.examples.simulated.SimulatedLeaf;

/**
 * UTS with Divvy: {@link UtsSequential#search(UtsTree)} with one spawn per child for nodes above
 * {@code spawnDepth}; deeper subtrees are searched sequentially by the same kernel ({@link SubtreeSearch}). The tree is not known in
 * advance (that is the benchmark's point), so the load balance comes from stealing.
 */
public class Uts implements UtsSpawner {
    /** The tree's parameters. */
    UtsTree tree;
    /** Nodes at this height or deeper search their subtree sequentially. */
    int spawnDepth;
    /**
     * When > 0, SIMULATED WORK: a node at {@code spawnDepth} parks this many µs and counts as a leaf
     * instead of searching its subtree ({@link UtsSequential#searchTruncated}). Sent with the job.
     */
    int simulatedLeafUs;
    /**
     * The tree's child-count table, built by the first job that needs it on this node and shared by the node's
     * workers (immutable, with final fields, so a worker that sees it sees it whole; two that race build it twice).
     * Not sent: a stolen copy builds its own.
     */
    private transient ChildCountTable table;

    /** For the generated receiver codec. */
    public Uts() {
    }

    public Uts(final UtsTree tree, final int spawnDepth) {
        this.tree = tree;
        this.spawnDepth = spawnDepth;
    }

    /** Subtrees at {@code spawnDepth} park {@code simulatedLeafUs} µs and count as leaves, if it is > 0. */
    public Uts(final UtsTree tree, final int spawnDepth, final int simulatedLeafUs) {
        this.tree = tree;
        this.spawnDepth = spawnDepth;
        this.simulatedLeafUs = simulatedLeafUs;
    }

    /** Counting the whole tree, as a run's root: {@code node.run(uts.searchTree()).value()}. */
    public Root<Counts> searchTree() {
        return Root.of(() -> spawnSearch(Sha1Rng.init(tree.rootSeed()), 0));
    }

    /** Counts the subtree of the node with {@code state} (a SHA-1 digest as 5 ints) at {@code height}. */
    @Spawnable
    public Counts search(final int[] state, final int height) {
        if (height >= spawnDepth) {
            if (simulatedLeafUs > 0) {
                SimulatedLeaf.park(simulatedLeafUs);
                return Counts.leaf(height);
            }
            return new SubtreeSearch(table()).search(state, height);
        }
        final ChildCountTable table = table();
        final int children = table.numChildren(Sha1Rng.rand(state), height);
        if (children == 0) {
            return Counts.leaf(height);
        }
        if (children > 0 && table.isAlwaysLeaf(height + 1)) {
            return new Counts(1 + children, children, height + 1);
        }
        // A child that is a leaf is counted here: a job for it would cost more than its one SHA-1.
        // (Most nodes are leaves: 80% of T1, 88% of T3.)
        Counts counts = new Counts(1, 0, height);
        final List<Spawn<Counts>> subtrees = new ArrayList<>(children);
        for (int i = 0; i < children; i++) {
            final int[] child = Sha1Rng.spawn(state, i);
            if (table.numChildren(Sha1Rng.rand(child), height + 1) == 0) {
                counts = counts.plus(Counts.leaf(height + 1));
            } else {
                subtrees.add(spawnSearch(child, height + 1));
            }
        }
        sync();
        for (final Spawn<Counts> subtree : subtrees) {
            counts = counts.plus(subtree.get());
        }
        return counts;
    }

    private ChildCountTable table() {
        ChildCountTable built = table;
        if (built == null) {
            built = ChildCountTable.of(tree);
            table = built;
        }
        return built;
    }
}
