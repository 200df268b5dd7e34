package org.divvy.perf.fj;

import java.util.concurrent.RecursiveTask;

import org.divvy.examples.nqueens.NQueensSequential;

/**
 * N-queens solution count on a ForkJoinPool, split like {@code org.divvy.examples.nqueens.NQueens}: one
 * task per queen placed in each row before {@code sequentialDepth}, then the sequential bitmask search.
 */
public final class NQueensTask extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;

    private final int n;
    private final int sequentialDepth;
    private final int row;
    private final int columns;
    private final int diagonalsLeft;
    private final int diagonalsRight;

    /** The task for the whole empty board. */
    public NQueensTask(final int n, final int sequentialDepth) {
        this(n, sequentialDepth, 0, 0, 0, 0);
    }

    private NQueensTask(final int n, final int sequentialDepth, final int row, final int columns,
        final int diagonalsLeft, final int diagonalsRight) {
        this.n = n;
        this.sequentialDepth = sequentialDepth;
        this.row = row;
        this.columns = columns;
        this.diagonalsLeft = diagonalsLeft;
        this.diagonalsRight = diagonalsRight;
    }

    @Override
    protected Long compute() {
        if (row == n) {
            return 1L;
        }
        if (row >= sequentialDepth) {
            return NQueensSequential.count(n, row, columns, diagonalsLeft, diagonalsRight);
        }
        final int all = (1 << n) - 1;
        int free = all & ~(columns | diagonalsLeft | diagonalsRight);
        if (free == 0) {
            return 0L;
        }
        final NQueensTask[] forked = new NQueensTask[Integer.bitCount(free) - 1];
        int count = 0;
        long solutions = 0;
        while (free != 0) {
            final int bit = free & -free;
            free -= bit;
            final NQueensTask child = new NQueensTask(n, sequentialDepth, row + 1, columns | bit,
                ((diagonalsLeft | bit) << 1) & all, (diagonalsRight | bit) >>> 1);
            if (free == 0) {
                solutions += child.compute();
            } else {
                child.fork();
                forked[count++] = child;
            }
        }
        for (int i = count - 1; i >= 0; i--) {
            solutions += forked[i].join();
        }
        return solutions;
    }
}
