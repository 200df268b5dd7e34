package org.divvy.examples.nqueens;

import org.divvy.LongSpawn;
import org.divvy.Root;
import org.divvy.annotations.Spawnable;

/**
 * N-queens with Divvy: {@link NQueensSequential#count(int, int, int, int, int)} with one spawn per queen
 * placed in each of the first {@code sequentialDepth} rows; deeper rows run sequentially.
 */
public class NQueens implements NQueensSpawner {
    /** The board size. */
    int n;
    /** Rows from this one on are counted sequentially. */
    int sequentialDepth;

    /** For the generated receiver codec. */
    public NQueens() {
    }

    public NQueens(final int n, final int sequentialDepth) {
        this.n = n;
        this.sequentialDepth = sequentialDepth;
    }

    /** Counting the solutions on the whole board, as a run's root: {@code node.run(queens.countAll()).value()}. */
    public Root<Long> countAll() {
        return Root.of(() -> spawnCount(0, 0, 0, 0));
    }

    @Spawnable
    public long count(final int row, final int columns, final int diagonalsLeft, final int diagonalsRight) {
        if (row == n) {
            return 1;
        }
        if (row >= sequentialDepth) {
            return NQueensSequential.count(n, row, columns, diagonalsLeft, diagonalsRight);
        }
        final int all = (1 << n) - 1;
        int free = all & ~(columns | diagonalsLeft | diagonalsRight);
        final LongSpawn[] placements = new LongSpawn[Integer.bitCount(free)];
        int placed = 0;
        while (free != 0) {
            final int bit = free & -free;
            free -= bit;
            placements[placed++] = spawnCount(row + 1, columns | bit, ((diagonalsLeft | bit) << 1) & all,
                (diagonalsRight | bit) >>> 1);
        }
        sync();
        long solutions = 0;
        for (final LongSpawn placement : placements) {
            solutions += placement.get();
        }
        return solutions;
    }
}
