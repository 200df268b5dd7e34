package org.divvy.examples;

import org.divvy.DivvyNode;
import org.divvy.RunResult;

/** Solves a prepared problem, times the solve, and checks the answer (after timing). */
public final class ExampleRunner {
    private ExampleRunner() {
    }

    /** The Divvy version, with {@code node} as the master. */
    public static <T> Outcome<T> runParallel(final String app, final DivvyNode node, final Problem<T> problem) {
        final RunResult<T> run = node.run(problem.root());
        final T answer = run.value();
        return new Outcome<>(answer, new AppResult(app, "divvy, " + node.config().workers() + " workers",
            problem.describe(answer), problem.check(answer), run.elapsedNs(), String.valueOf(run.statistics())));
    }

    /** The sequential version, on the calling thread. */
    public static <T> Outcome<T> runSequential(final String app, final Problem<T> problem) {
        final long startNs = System.nanoTime();
        final T answer = problem.solveSequential();
        final long elapsedNs = System.nanoTime() - startNs;
        return new Outcome<>(answer, new AppResult(app, "sequential", problem.describe(answer), problem.check(answer),
            elapsedNs, ""));
    }

    /**
     * An answer with its result.
     *
     * @param answer the value the solver returned
     * @param result the checked, timed result
     */
    public record Outcome<T>(T answer, AppResult result) {
    }
}
