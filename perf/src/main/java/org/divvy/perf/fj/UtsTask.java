package org.divvy.perf.fj;

import java.util.concurrent.RecursiveTask;

import org.divvy.examples.uts.ChildCountTable;
import org.divvy.examples.uts.Counts;
import org.divvy.examples.uts.Sha1Rng;
import org.divvy.examples.uts.SubtreeSearch;
import org.divvy.examples.uts.UtsTree;

/**
 * UTS on a ForkJoinPool, split like {@code org.divvy.examples.uts.Uts}: one task per child of every node
 * above {@code spawnDepth}; deeper subtrees are searched by the same kernel, {@link SubtreeSearch}.
 */
public final class UtsTask extends RecursiveTask<Counts> {
    private static final long serialVersionUID = 1L;

    private final ChildCountTable table;
    private final int spawnDepth;
    private final int[] state;
    private final int height;

    /** The task for the whole tree. */
    public UtsTask(final UtsTree tree, final int spawnDepth) {
        this(ChildCountTable.of(tree), spawnDepth, Sha1Rng.init(tree.rootSeed()), 0);
    }

    private UtsTask(final ChildCountTable table, final int spawnDepth, final int[] state, final int height) {
        this.table = table;
        this.spawnDepth = spawnDepth;
        this.state = state;
        this.height = height;
    }

    @Override
    protected Counts compute() {
        if (height >= spawnDepth) {
            return new SubtreeSearch(table).search(state, height);
        }
        final int children = table.numChildren(Sha1Rng.rand(state), height);
        if (children == 0) {
            return Counts.leaf(height);
        }
        final UtsTask[] forked = new UtsTask[children - 1];
        for (int i = 0; i < children - 1; i++) {
            forked[i] = new UtsTask(table, spawnDepth, Sha1Rng.spawn(state, i), height + 1);
            forked[i].fork();
        }
        Counts counts = new Counts(1, 0, height)
            .plus(new UtsTask(table, spawnDepth, Sha1Rng.spawn(state, children - 1), height + 1).compute());
        for (int i = children - 2; i >= 0; i--) {
            counts = counts.plus(forked[i].join());
        }
        return counts;
    }
}
