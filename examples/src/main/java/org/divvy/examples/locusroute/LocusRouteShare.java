package org.divvy.examples.locusroute;

import java.util.Arrays;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * LocusRoute with Divvy, divide and share (Satin++'s LocusRoute): the cost array is one shared {@link CostArray}.
 * The root job runs the iterations; each spawns a tree that halves the wires (in geographic order, so a job's
 * wires are a compact region) down to groups of {@code leafWires}; a group's job routes its wires one after the
 * other against its node's replica and writes each wire it moves ({@link CostArray#move}), so every job sees
 * its own routes at once and the other jobs' as the writes arrive (on its own node at once, from other nodes
 * after the combining delay). No phases are needed, unlike {@link LocusRoute}: neighbours see each other's wires,
 * late. The routes travel up the tree; the root keeps them between iterations.
 */
public class LocusRouteShare implements LocusRouteShareSpawner {
    Circuit circuit;
    /** Groups of at most this many wires are routed by one job. */
    int leafWires;
    /** The wires in geographic order. */
    int[] order;

    /** For the generated receiver codec. */
    public LocusRouteShare() {
    }

    public LocusRouteShare(final Circuit circuit, final int leafWires) {
        this.circuit = circuit;
        this.leafWires = leafWires;
        this.order = LocusRouteSequential.geographicOrder(circuit);
    }

    /** Routing the circuit in {@code iterations} passes with a fresh shared cost array, as a run's root. */
    public Root<Routing> routeAll(final int iterations) {
        final CostArray costs = new CostArrayShared(circuit.width(), circuit.height());
        return Root.of(() -> spawnRouteIterations(iterations, costs));
    }

    @Spawnable
    public Routing routeIterations(final int iterations, final CostArray costs) {
        final int[] present = new int[order.length]; // by position in the geographic order
        Arrays.fill(present, -1);
        for (int iteration = 0; iteration < iterations; iteration++) {
            final Spawn<int[]> all = spawnRouteWires(present, 0, order.length, costs);
            sync();
            System.arraycopy(all.get(), 0, present, 0, present.length);
        }
        final int[] routes = new int[circuit.wires()];
        for (int k = 0; k < order.length; k++) {
            routes[order[k]] = present[k];
        }
        return Routing.of(circuit, routes);
    }

    /**
     * The new routes of the wires {@code order[from .. to - 1]}, whose present routes are {@code present} (-1: none
     * yet), routed against the shared cost array and written to it.
     */
    @Spawnable
    public int[] routeWires(final int[] present, final int from, final int to, final CostArray costs) {
        if (to - from <= leafWires) {
            final int[] pins = circuit.pins();
            final int[] scratch = new int[circuit.width() * circuit.height()];
            final int[] out = new int[to - from];
            for (int k = from; k < to; k++) {
                final int w = order[k];
                final int x1 = pins[4 * w];
                final int y1 = pins[4 * w + 1];
                final int x2 = pins[4 * w + 2];
                final int y2 = pins[4 * w + 3];
                final int old = present[k - from];
                final int route = costs.cheapestRoute(x1, y1, x2, y2, old, scratch);
                if (route != old) {
                    costs.move(x1, y1, x2, y2, old, route);
                }
                out[k - from] = route;
            }
            return out;
        }
        final int middle = (from + to) >>> 1;
        final Spawn<int[]> low = spawnRouteWires(Arrays.copyOfRange(present, 0, middle - from), from, middle, costs);
        final Spawn<int[]> high = spawnRouteWires(Arrays.copyOfRange(present, middle - from, to - from), middle, to, costs);
        sync();
        final int[] lowRoutes = low.get();
        final int[] highRoutes = high.get();
        final int[] out = Arrays.copyOf(lowRoutes, lowRoutes.length + highRoutes.length);
        System.arraycopy(highRoutes, 0, out, lowRoutes.length, highRoutes.length);
        return out;
    }
}
