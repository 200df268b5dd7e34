package org.divvy.examples.nqueens;

/**
 * Counts the placements of N non-attacking queens, sequentially, one row at a time with bitmasks:
 * {@code columns} holds the occupied columns, {@code diagonalsLeft}/{@code diagonalsRight} the squares
 * of the current row attacked along each diagonal direction.
 */
public final class NQueensSequential {
    /** Solutions for n = 0..16 (OEIS A000170); the reference answers. */
    private static final long[] KNOWN_SOLUTIONS = {
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};

    /** The largest board the int bitmasks hold with room for the shifts. */
    public static final int MAX_N = 30;

    private NQueensSequential() {
    }

    /** The number of solutions on an n-by-n board. */
    public static long count(final int n) {
        return count(n, 0, 0, 0, 0);
    }

    /** The number of ways to complete a board whose rows before {@code row} are filled as the masks say. */
    public static long count(final int n, final int row, final int columns, final int diagonalsLeft,
        final int diagonalsRight) {
        if (row == n) {
            return 1;
        }
        final int all = (1 << n) - 1;
        int free = all & ~(columns | diagonalsLeft | diagonalsRight);
        long solutions = 0;
        while (free != 0) {
            final int bit = free & -free;
            free -= bit;
            solutions += count(n, row + 1, columns | bit, ((diagonalsLeft | bit) << 1) & all,
                (diagonalsRight | bit) >>> 1);
        }
        return solutions;
    }

    /** Whether the table of known counts covers n. */
    public static boolean isKnown(final int n) {
        return n >= 0 && n < KNOWN_SOLUTIONS.length;
    }

    /** The known number of solutions for n; see {@link #isKnown(int)}. */
    public static long known(final int n) {
        if (!isKnown(n)) {
            throw new IllegalArgumentException("n=" + n + ", known counts cover 0.." + (KNOWN_SOLUTIONS.length - 1));
        }
        return KNOWN_SOLUTIONS[n];
    }
}
