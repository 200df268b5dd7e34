package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;

import org.divvy.examples.nqueens.NQueens;
import org.divvy.examples.nqueens.NQueensSequential;
import org.divvy.perf.fj.NQueensTask;

/** Counts the N-queens solutions: a task per queen placed in the rows before the sequential depth. */
final class NQueensBenchmark extends Benchmark<Void, Long> {
    private final int n;
    private final int sequentialDepth;
    private final long expected;

    NQueensBenchmark(final String id, final int n, final int sequentialDepth) {
        super(id, n + "-queens, tasks in rows < " + sequentialDepth, 0, "");
        this.n = n;
        this.sequentialDepth = sequentialDepth;
        this.expected = NQueensSequential.known(n);
    }

    @Override
    public Void newInput() {
        return null;
    }

    @Override
    public Long runSequential(final Void input) {
        return NQueensSequential.count(n);
    }

    @Override
    public Long runForkJoin(final ForkJoinPool pool, final Void input) {
        return pool.invoke(new NQueensTask(n, sequentialDepth));
    }

    @Override
    public Long runDivvy(final DivvyEngine divvy, final Void input) {
        return divvy.run(new NQueens(n, sequentialDepth).countAll());
    }

    @Override
    public void checkAnswer(final Contender contender, final Long answer) {
        if (answer == null || answer != expected) {
            throw new WrongAnswerException(id(), contender,
                n + "-queens solutions = " + answer + ", expected " + expected + " (OEIS A000170)");
        }
    }

    @Override
    public String describeAnswer(final Long answer) {
        return answer + " solutions";
    }
}
