package org.divvy.sharing;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/** A shared array with a version number: one write per round replaces the cells, as Barnes-Hut updates its bodies. */
@SharedObject
public class Grid {
    int version;
    long[] cells;

    public Grid() {
    }

    public Grid(final int size) {
        cells = new long[size];
    }

    /** Round {@code newVersion}: every cell becomes {@code newVersion * (index + 1)}. */
    @Write
    public void advance(final int newVersion) {
        version = newVersion;
        for (int i = 0; i < cells.length; i++) {
            cells[i] = (long)newVersion * (i + 1);
        }
    }

    public int version() {
        return version;
    }

    /**
     * A read method that reaches a safe point while it reads: {@code inside} stands for a spawn, a sync or
     * {@code pollSharedObjects()} in its body. Returns the version it saw after {@code inside}.
     */
    public int versionAround(final Runnable inside) {
        inside.run();
        return version;
    }

    public long sum(final int from, final int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += cells[i];
        }
        return sum;
    }

    public int size() {
        return cells.length;
    }

    /** What {@link #sum} returns over every cell in round {@code version}. */
    static long expectedSum(final int version, final int size) {
        return (long)version * size * (size + 1L) / 2;
    }
}
