package org.divvy.examples.locusroute;

import java.util.Arrays;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * LocusRoute with Divvy, pure divide and conquer. The wires are taken in geographic order
 * ({@link LocusRouteSequential#geographicOrder}) and cut into groups of {@code leafWires}, so a group is a compact
 * region of the grid, as LocusRoute assigned regions to processors. The root job runs the iterations, each in two
 * phases: first the even-numbered groups, then the odd ones, each phase spawned as a tree over its groups. A
 * group's job gets the cost array as it stood when its phase began, routes its wires one after the other on its
 * own copy (so it sees its own wires, not the other groups' new routes) and returns their routes; the root
 * applies them, in order, before the next phase.
 *
 * <p>Without a shared cost array, groups routed at once cannot avoid each other; the phases keep neighbouring
 * regions (consecutive groups) from routing at the same time, which matters most in the reroute iterations: blind
 * neighbours would all move their wires off the same hot cells onto the same cold ones and back. Some quality is
 * still lost where wires reach past the neighbouring region (the check bounds it). The answer does not depend on
 * how jobs were scheduled or stolen.
 */
public class LocusRoute implements LocusRouteSpawner {
    Circuit circuit;
    /** Groups of at most this many wires are routed by one job. */
    int leafWires;
    /** The wires in geographic order; group {@code g} is {@code order[g * leafWires ..]}. */
    int[] order;

    /** For the generated receiver codec. */
    public LocusRoute() {
    }

    public LocusRoute(final Circuit circuit, final int leafWires) {
        this.circuit = circuit;
        this.leafWires = leafWires;
        this.order = LocusRouteSequential.geographicOrder(circuit);
    }

    /** Routing the circuit in {@code iterations} passes, as a run's root. */
    public Root<Routing> routeAll(final int iterations) {
        return Root.of(() -> spawnRouteIterations(iterations));
    }

    @Spawnable
    public Routing routeIterations(final int iterations) {
        final int[] costs = new int[circuit.width() * circuit.height()];
        final int[] routes = new int[circuit.wires()];
        Arrays.fill(routes, -1);
        final int groups = (order.length + leafWires - 1) / leafWires;
        for (int iteration = 0; iteration < iterations; iteration++) {
            for (int phase = 0; phase < 2; phase++) {
                final int phaseGroups = (groups - phase + 1) / 2; // groups phase, phase + 2, ...
                if (phaseGroups == 0) {
                    continue;
                }
                final Spawn<int[]> all = spawnRouteGroups(costs, routes, phase, 0, phaseGroups);
                sync();
                final int[] rerouted = all.get();
                int next = 0;
                for (int j = 0; j < phaseGroups; j++) {
                    final int group = 2 * j + phase;
                    for (int k = group * leafWires; k < Math.min(order.length, (group + 1) * leafWires); k++) {
                        final int w = order[k];
                        if (routes[w] >= 0) {
                            LocusRouteSequential.walk(circuit, w, routes[w], costs, -1);
                        }
                        routes[w] = rerouted[next++];
                        LocusRouteSequential.walk(circuit, w, routes[w], costs, 1);
                    }
                }
            }
        }
        return Routing.of(circuit, routes);
    }

    /**
     * The new routes of the wires of groups {@code 2j + phase} for {@code j} in {@code from .. to - 1}, in order,
     * each group routed against {@code costs} (not changed) where the wires' present {@code routes} (-1: none yet)
     * are counted in.
     */
    @Spawnable
    public int[] routeGroups(final int[] costs, final int[] routes, final int phase, final int from, final int to) {
        if (to - from == 1) {
            final int group = 2 * from + phase;
            final int first = group * leafWires;
            final int end = Math.min(order.length, first + leafWires);
            // a child on this node shares its parent's arrays: route on copies, never into them
            final int[] ownCosts = costs.clone();
            final int[] ownRoutes = routes.clone();
            final int[] out = new int[end - first];
            for (int k = first; k < end; k++) {
                LocusRouteSequential.reroute(circuit, ownCosts, ownRoutes, order[k]);
                out[k - first] = ownRoutes[order[k]];
            }
            return out;
        }
        final int middle = (from + to) >>> 1;
        final Spawn<int[]> low = spawnRouteGroups(costs, routes, phase, from, middle);
        final Spawn<int[]> high = spawnRouteGroups(costs, routes, phase, middle, to);
        sync();
        final int[] lowRoutes = low.get();
        final int[] highRoutes = high.get();
        final int[] out = Arrays.copyOf(lowRoutes, lowRoutes.length + highRoutes.length);
        System.arraycopy(highRoutes, 0, out, lowRoutes.length, highRoutes.length);
        return out;
    }
}
