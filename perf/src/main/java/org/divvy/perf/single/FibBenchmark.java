package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;

import org.divvy.examples.fib.Fib;
import org.divvy.examples.fib.FibSequential;
import org.divvy.perf.fj.FibTask;

/**
 * fib(n) by double recursion. With threshold 0 every call is a task (Divvy spawns both calls, FJP forks
 * one and computes the other), which measures the cost of a task: the per-unit time is per fib call,
 * 2 * fib(n + 1) - 1 of them, the same count for every contender.
 */
final class FibBenchmark extends Benchmark<Void, Long> {
    private final int n;
    private final int threshold;
    private final long expected;

    FibBenchmark(final String id, final int n, final int threshold) {
        super(id, "fib(" + n + ")" + (threshold <= 1 ? ", every call a task" : ", calls below " + threshold + " sequential"),
            FibSequential.calls(n), "fib call");
        this.n = n;
        this.threshold = threshold;
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
