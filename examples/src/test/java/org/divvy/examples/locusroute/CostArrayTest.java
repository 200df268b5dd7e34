package org.divvy.examples.locusroute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared cost array chooses as the sequential router does (the wire itself taken out, ties to its present
 * route) without changing the replica in a read; so one job routing every wire is the sequential router.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CostArrayTest {
    @Test
    void shouldChooseTheRoutesTheSequentialRouterChooses() {
        final Circuit circuit = Circuit.random(40, 30, 400, 12, 5);
        final int[] costs = new int[40 * 30];
        final int[] routes = new int[circuit.wires()];
        Arrays.fill(routes, -1);
        final CostArray shared = new CostArray(40, 30);
        final int[] scratch = new int[40 * 30];
        final int[] pins = circuit.pins();
        int moved = 0;
        for (int iteration = 0; iteration < 3; iteration++) {
            for (int w = 0; w < circuit.wires(); w++) {
                final int present = routes[w];
                LocusRouteSequential.reroute(circuit, costs, routes, w);
                final int chosen = shared.cheapestRoute(pins[4 * w], pins[4 * w + 1], pins[4 * w + 2], pins[4 * w + 3],
                    present, scratch);
                assertEquals(routes[w], chosen, "wire " + w + " in iteration " + iteration);
                if (chosen != present) {
                    shared.move(pins[4 * w], pins[4 * w + 1], pins[4 * w + 2], pins[4 * w + 3], present, chosen);
                    moved += iteration > 0 ? 1 : 0;
                }
                assertArrayEquals(new int[scratch.length], scratch, "the scratch grid is left all zeros");
            }
        }
        assertArrayEquals(costs, shared.cells, "the same cost array");
        assertEquals(true, moved > 0, "rerouting moved some wires, so the rip-up path was exercised");
    }

    @Test
    void shouldRouteLikeTheSequentialRouterInOneJob() {
        final Circuit circuit = Circuit.random(48, 48, 500, 8, 9);
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(1).build())) {
            final Routing shared = node.run(new LocusRouteShare(circuit, circuit.wires()).routeAll(3)).value();
            // one group: the sequential router over the wires in geographic order
            final int[] order = LocusRouteSequential.geographicOrder(circuit);
            final int[] costs = new int[48 * 48];
            final int[] routes = new int[circuit.wires()];
            Arrays.fill(routes, -1);
            for (int iteration = 0; iteration < 3; iteration++) {
                for (final int w : order) {
                    LocusRouteSequential.reroute(circuit, costs, routes, w);
                }
            }
            assertArrayEquals(routes, shared.routes());
        }
    }
}
