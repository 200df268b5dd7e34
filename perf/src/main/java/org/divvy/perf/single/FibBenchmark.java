package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;

import org.divvy.examples.fib.Fib;
import org.divvy.examples.fib.FibSequential;
import org.divvy.perf.fj.FibTask;

/**
 * fib(n) by double recursion. With threshold 0 every call is a task, which measures the cost of a task: the
 * per-unit time is per fib call, 2 * fib(n + 1) - 1 of them, the same count for every contender. FJP forks the
 * n - 1 call and computes the n - 2 call directly (one task per call with n >= 2); Divvy runs the examples'
 * {@code Fib}, which spawns both calls, or, with {@code spawnOne}, {@link FibSpawnOne}, FJP's shape.
 */
final class FibBenchmark extends Benchmark<Void, Long> {
    private final int n;
    private final int threshold;
    private final boolean spawnOne;
    private final long expected;

    FibBenchmark(final String id, final int n, final int threshold) {
        this(id, n, threshold, false);
    }

    /** {@code spawnOne}: Divvy in FJP's shape ({@link FibSpawnOne}, every call a task); {@code threshold} must be 0. */
    FibBenchmark(final String id, final int n, final int threshold, final boolean spawnOne) {
        super(id, "fib(" + n + ")" + (spawnOne ? ", every call a task, Divvy in FJP's shape (spawn n-1, call n-2)"
            : threshold <= 1 ? ", every call a task" : ", calls below " + threshold + " sequential"),
            FibSequential.calls(n), "fib call");
        if (spawnOne && threshold > 1) {
            throw new IllegalArgumentException("threshold=" + threshold + " with spawnOne, must be 0 or 1");
        }
        this.n = n;
        this.threshold = threshold;
        this.spawnOne = spawnOne;
        this.expected = FibSequential.fibIterative(n);
    }

    @Override
    public Void newInput() {
        return null;
    }

    @Override
    public Long runSequential(final Void input) {
        return FibSequential.fib(n);
    }

    @Override
    public Long runForkJoin(final ForkJoinPool pool, final Void input) {
        final FibTask task = new FibTask(n, threshold);
        pool.invoke(task);
        return task.result();
    }

    @Override
    public Long runDivvy(final DivvyEngine divvy, final Void input) {
        if (spawnOne) {
            return divvy.run(() -> new FibSpawnOne().fib(n));
        }
        return divvy.run(() -> new Fib(threshold).fib(n));
    }

    @Override
    public void checkAnswer(final Contender contender, final Long answer) {
        if (answer == null || answer != expected) {
            throw new WrongAnswerException(id(), contender, "fib(" + n + ") = " + answer + ", expected " + expected);
        }
    }

    @Override
    public String describeAnswer(final Long answer) {
        return "fib(" + n + ")=" + answer;
    }
}
