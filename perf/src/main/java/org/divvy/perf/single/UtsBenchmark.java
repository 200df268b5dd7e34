package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;

import org.divvy.examples.uts.Counts;
import org.divvy.examples.uts.Uts;
import org.divvy.examples.uts.UtsSequential;
import org.divvy.examples.uts.UtsTree;
import org.divvy.perf.fj.UtsTask;

/**
 * Unbalanced Tree Search: counts a tree generated on the fly by a SHA-1 splittable RNG, a task per child
 * above the spawn depth. The per-unit time is per tree node (each costs one SHA-1 compression).
 */
final class UtsBenchmark extends Benchmark<Void, Counts> {
    private final UtsTree tree;
    private final int spawnDepth;
    private final Counts expected;

    /**
     * @param expected the published counts of the tree; null to take the sequential search's counts,
     *                 computed once here, as the reference (for trees without published counts)
     */
    UtsBenchmark(final String id, final String treeName, final UtsTree tree, final int spawnDepth, final Counts expected) {
        this(id, treeName, tree, spawnDepth, expected != null ? expected : UtsSequential.search(tree), expected != null);
    }

    private UtsBenchmark(final String id, final String treeName, final UtsTree tree, final int spawnDepth,
        final Counts expected, final boolean published) {
        super(id, "UTS " + treeName + " (" + tree.flags() + "), tasks above height " + spawnDepth +
            (published ? "" : ", reference = sequential search"), expected.nodes(), "tree node");
        this.tree = tree;
        this.spawnDepth = spawnDepth;
        this.expected = expected;
    }

    @Override
    public Void newInput() {
        return null;
    }

    @Override
    public Counts runSequential(final Void input) {
        return UtsSequential.search(tree);
    }

    @Override
    public Counts runForkJoin(final ForkJoinPool pool, final Void input) {
        return pool.invoke(new UtsTask(tree, spawnDepth));
    }

    @Override
    public Counts runDivvy(final DivvyEngine divvy, final Void input) {
        return divvy.run(new Uts(tree, spawnDepth).searchTree());
    }

    @Override
    public void checkAnswer(final Contender contender, final Counts answer) {
        if (!expected.equals(answer)) {
            throw new WrongAnswerException(id(), contender, "counts " + answer + ", expected " + expected);
        }
    }

    @Override
    public String describeAnswer(final Counts answer) {
        return answer.nodes() + " nodes, " + answer.leaves() + " leaves, depth " + answer.maxDepth();
    }
}
