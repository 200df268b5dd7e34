package org.divvy.perf.sharing;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/** LocusRoute's shared cost array: routes read it cell by cell, and each routed wire adds its path to it (one write). */
@SharedObject
public class Costs {
    int width;
    int[] cells;

    public Costs() {
    }

    public Costs(final int width, final int height) {
        this.width = width;
        this.cells = new int[width * height];
    }

    /** A routed wire: adds {@code delta} along row {@code y} from {@code x0} to {@code x1}. */
    @Write
    public void addRow(final int y, final int x0, final int x1, final int delta) {
        for (int x = x0; x < x1; x++) {
            cells[y * width + x] += delta;
        }
    }

    public int cost(final int x, final int y) {
        return cells[y * width + x];
    }
}
