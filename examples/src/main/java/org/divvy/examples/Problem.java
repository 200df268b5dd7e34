package org.divvy.examples;

/**
 * One prepared instance of an example: its input is built (untimed) before either solver runs, so
 * the parallel and the sequential version solve exactly the same input.
 *
 * <p>{@link #solveParallel()} spawns, so it must run as the root task of a Divvy node
 * ({@code node.run(problem::solveParallel)}); {@link #solveSequential()} is plain Java and runs on any
 * thread. Both must return the same answer.
 *
 * @param <T> the type of the answer
 */
public interface Problem<T> {
    /** Solves the instance with the Divvy version of the algorithm; call it on a Divvy worker only. */
    T solveParallel();

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
