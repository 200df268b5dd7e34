package org.divvy.examples;

import org.divvy.Root;

/**
 * One prepared instance of an example: its input is built (untimed) before either solver runs, so
 * the parallel and the sequential version solve exactly the same input.
 *
 * <p>{@link #root()} is the Divvy version as one spawn of the app's spawnable entry, so it can run on this node
 * ({@code node.run(problem.root())}) or be handed to the registry ({@code node.submit(problem.root())}), which
 * gives it to another node if its master dies; {@link #solveSequential()} is plain Java and runs on any thread.
 * Both must give the same answer.
 *
 * @param <T> the type of the answer
 */
public interface Problem<T> {
    /**
     * The Divvy version: a single spawn of the app's spawnable entry with this instance's input, e.g.
     * {@code Root.of(() -> new NQueens(n, depth).spawnCount(0, 0, 0, 0))}. Call it on the thread that runs or
     * submits it (the spawn is recorded there, not queued).
     */
    Root<T> root();

    /** Solves the instance with the sequential version of the same algorithm. */
    T solveSequential();

    /** Compares an answer with an independent reference (known table, closed form, other algorithm). */
    Check check(T answer);

    /** The answer as one human-readable line. */
    String describe(T answer);

    /** Called once with the answer after timing, e.g. to write an image; does nothing by default. */
    default void afterRun(final T answer) {
    }
}
