package org.divvy.examples.locusroute;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * LocusRoute's cost array as a shared object: how many wires run through each cell of the grid. Every job routes
 * against its node's replica and writes each wire it moves; the writes reach the other replicas best effort
 * (with combining, Satin used 100 ms: {@link LocusRouteApp#RECOMMENDED_COMBINING_MS}). A stale replica only
 * makes a job choose worse routes (the final quality is computed from the routes themselves, and bounded by the
 * check); a count may even go below zero for a while where a rip-up overtakes its route's addition. No guard is
 * needed.
 */
@SharedObject
public class CostArray {
    int width;
    int[] cells;

    public CostArray() {
    }

    public CostArray(final int width, final int height) {
        this.width = width;
        this.cells = new int[width * height];
    }

    /**
     * The wire from (x1, y1) to (x2, y2) leaves route {@code from} (-1: none) for route {@code to}: one write per
     * routed wire (a rip-up and a re-route in one message).
     */
    @Write
    public void move(final int x1, final int y1, final int x2, final int y2, final int from, final int to) {
        if (from >= 0) {
            LocusRouteSequential.walk(width, x1, y1, x2, y2, from, cells, -1);
        }
        LocusRouteSequential.walk(width, x1, y1, x2, y2, to, cells, 1);
    }

    /**
     * The cheapest route of the wire from (x1, y1) to (x2, y2), which runs along {@code present} now (-1: not yet
     * routed), against this replica with the wire itself taken out, as {@link LocusRouteSequential#reroute} chooses
     * (ties to the present route, then to the first candidate). A read must not change the replica, so the wire's
     * own cells are marked in the caller's {@code scratch} grid (all zeros, as large as the cost array; left all
     * zeros) and subtracted. One call, one read lock, for all the candidates.
     */
    public int cheapestRoute(final int x1, final int y1, final int x2, final int y2, final int present,
        final int[] scratch) {
        if (present < 0) {
            return LocusRouteSequential.cheapestRoute(width, x1, y1, x2, y2, cells, -1);
        }
        LocusRouteSequential.walk(width, x1, y1, x2, y2, present, scratch, 1);
        long best = costWithout(x1, y1, x2, y2, present, scratch);
        int bestRoute = present;
        for (int c = Math.min(x1, x2); c <= Math.max(x1, x2); c++) {
            final long cost = costWithout(x1, y1, x2, y2, 2 * c, scratch);
            if (cost < best) {
                best = cost;
                bestRoute = 2 * c;
            }
        }
        for (int r = Math.min(y1, y2); r <= Math.max(y1, y2); r++) {
            final long cost = costWithout(x1, y1, x2, y2, 2 * r + 1, scratch);
            if (cost < best) {
                best = cost;
                bestRoute = 2 * r + 1;
            }
        }
        LocusRouteSequential.walk(width, x1, y1, x2, y2, present, scratch, -1);
        return bestRoute;
    }

    /** The cost of {@code route} with the cells marked in {@code scratch} counting one wire less. */
    private long costWithout(final int x1, final int y1, final int x2, final int y2, final int route, final int[] scratch) {
        return LocusRouteSequential.walk(width, x1, y1, x2, y2, route, cells, 0)
            - LocusRouteSequential.walk(width, x1, y1, x2, y2, route, scratch, 0);
    }

    public int cell(final int x, final int y) {
        return cells[y * width + x];
    }
}
