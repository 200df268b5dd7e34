package org.divvy.examples.locusroute;

/**
 * A routed circuit: each wire's chosen route and the quality of the whole.
 *
 * @param routes        wire {@code w}'s route, as {@link LocusRouteSequential#route} encodes it
 * @param congestion    the sum over cells of the square of the number of wires through the cell: what routing
 *                      minimises (a cell shared by k wires costs k^2, so overlaps cost more than detours)
 * @param maxOccupancy  the most wires through one cell (the channel density a chip would need)
 * @param wireCells     the total length of all routes in cells
 */
public record Routing(int[] routes, long congestion, int maxOccupancy, long wireCells) {
    /** The quality of {@code routes} on {@code circuit}. */
    public static Routing of(final Circuit circuit, final int[] routes) {
        final int[] occupancy = new int[circuit.width() * circuit.height()];
        long cells = 0;
        for (int w = 0; w < circuit.wires(); w++) {
            cells += LocusRouteSequential.walk(circuit, w, routes[w], occupancy, 1);
        }
        long congestion = 0;
        int max = 0;
        for (final int k : occupancy) {
            congestion += (long)k * k;
            max = Math.max(max, k);
        }
        return new Routing(routes, congestion, max, cells);
    }
}
