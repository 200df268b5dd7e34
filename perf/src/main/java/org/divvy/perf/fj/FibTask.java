package org.divvy.perf.fj;

import java.util.concurrent.RecursiveAction;

import org.divvy.examples.fib.FibSequential;

/**
 * fib(n) on a ForkJoinPool, split like {@code org.divvy.examples.fib.Fib}: below {@code threshold} the
 * sequential definition runs; threshold 0 or 1 makes every call a task.
 *
 * <p>A {@link RecursiveAction} with a {@code long} result field rather than a
 * {@code RecursiveTask<Long>}: Divvy's {@code LongSpawn} does not box, so neither does the baseline
 * (this is the shape of the Fib in Doug Lea's own ForkJoin benchmarks). The comparison stays per task:
 * one object per forked call on both sides.
 */
public final class FibTask extends RecursiveAction {
    private static final long serialVersionUID = 1L;

    private final int n;
    private final int threshold;
    private long result;

    public FibTask(final int n, final int threshold) {
        this.n = n;
        this.threshold = threshold;
    }

    /** fib(n); valid once the task has been joined or invoked. */
    public long result() {
        return result;
    }

    @Override
    protected void compute() {
        result = fib(n, threshold);
    }

    /** Forks the n - 1 call, computes the n - 2 call on this thread, then joins. */
    private static long fib(final int n, final int threshold) {
        if (n < 2) {
            return n;
        }
        if (n < threshold) {
            return FibSequential.fib(n);
        }
        final FibTask minusOne = new FibTask(n - 1, threshold);
        minusOne.fork();
        final long minusTwo = fib(n - 2, threshold);
        minusOne.join();
        return minusOne.result + minusTwo;
    }
}
