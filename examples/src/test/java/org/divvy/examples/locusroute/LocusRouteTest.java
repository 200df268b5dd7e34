package org.divvy.examples.locusroute;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.examples.AppResult;
import org.divvy.examples.ExampleRunner;
import org.divvy.examples.Nodes;
import org.divvy.examples.Problem;
import org.divvy.examples.Verdict;
import org.divvy.examples.WireCopies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LocusRouteTest {
    @Test
    void shouldGiveEveryWireAShortestTwoBendRoute() {
        final Circuit circuit = Circuit.random(50, 40, 300, 10, 3);
        final Routing routing = LocusRouteSequential.route(circuit, 2);
        long manhattan = 0;
        for (int w = 0; w < circuit.wires(); w++) {
            assertTrue(LocusRouteSequential.isValidRoute(circuit, w, routing.routes()[w]), "wire " + w);
            final int[] p = Arrays.copyOfRange(circuit.pins(), 4 * w, 4 * w + 4);
            manhattan += Math.abs(p[0] - p[2]) + Math.abs(p[1] - p[3]) + 1;
        }
        assertEquals(manhattan, routing.wireCells(), "two-bend routes between the pins are shortest paths");
    }

    @Test
    void shouldAvoidABusyCellWhenARouteAroundItCostsNothingMore() {
        // one wire from (0,0) to (4,4) on an empty grid except a wall of cost at column 0 and row 4
        final Circuit circuit = new Circuit(5, 5, new int[] {0, 0, 4, 4});
        final int[] costs = new int[25];
        for (int i = 0; i < 5; i++) {
            costs[i * 5] = 9;      // column 0
            costs[4 * 5 + i] = 9;  // row 4
        }
        costs[0] = 0; // the pin cell itself
        costs[24] = 0;
        final int route = LocusRouteSequential.cheapestRoute(circuit, 0, costs, -1);
        // the vertical run at column 4 (row 0 across, then up): kind 0 with its bend at column 4
        assertEquals(2 * 4, route);
        assertEquals(0, LocusRouteSequential.walk(circuit, 0, route, costs, 0));
    }

    @Test
    void shouldReduceCongestionByRerouting() {
        final Circuit circuit = Circuit.random(64, 64, 800, 12, 5);
        assertTrue(LocusRouteSequential.route(circuit, 3).congestion() < LocusRouteSequential.route(circuit, 1).congestion());
    }

    @Test
    void shouldOrderEveryWireOnceGeographically() {
        final Circuit circuit = Circuit.random(100, 100, 1000, 20, 9);
        final int[] order = LocusRouteSequential.geographicOrder(circuit).clone();
        Arrays.sort(order);
        for (int i = 0; i < order.length; i++) {
            assertEquals(i, order[i]);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldRouteWithinTheBoundOfTheSequentialRouterWhateverTheScheduling(final int workers) {
        final Circuit circuit = Circuit.random(100, 100, 2000, 20, 7);
        final Routing sequential = LocusRouteSequential.route(circuit, 3);
        for (final int leaf : new int[] {2000, 300, 100}) {
            final Routing one = Nodes.run(1, new LocusRoute(circuit, leaf).routeAll(3));
            final Routing parallel = Nodes.run(workers, new LocusRoute(circuit, leaf).routeAll(3));
            assertArrayEquals(one.routes(), parallel.routes(), "leaf " + leaf + ": deterministic");
            final var check = LocusRouteApp.checkAgainst(circuit, parallel, sequential);
            assertEquals(Verdict.PASS, check.verdict(), "leaf " + leaf + ": " + check.detail());
        }
        // one group is the sequential router in geographic order: a different order, but no blind groups
        assertTrue(LocusRouteApp.checkAgainst(circuit, Nodes.run(workers, new LocusRoute(circuit, 5000).routeAll(3)),
            sequential).verdict() == Verdict.PASS);
    }

    @Test
    void shouldFailAnAnswerBeyondTheBound() {
        final Circuit circuit = Circuit.random(64, 64, 600, 12, 1);
        final Routing sequential = LocusRouteSequential.route(circuit, 3);
        final int[] piled = new int[circuit.wires()]; // every wire bent at its first pin's column or row: no avoiding
        for (int w = 0; w < circuit.wires(); w++) {
            piled[w] = 2 * circuit.pins()[4 * w];
        }
        final Routing bad = Routing.of(circuit, piled);
        assertTrue(bad.congestion() > sequential.congestion() * (1 + LocusRouteApp.CONGESTION_BOUND), "a bad answer");
        assertEquals(Verdict.FAIL, LocusRouteApp.checkAgainst(circuit, bad, sequential).verdict());
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final Circuit circuit = Circuit.random(40, 40, 200, 8, 2);
        final LocusRoute router = new LocusRoute(circuit, 100);
        final int[] costs = new int[40 * 40];
        final int[] routes = new int[200];
        Arrays.fill(routes, -1);
        final LocusRouteJobs.RouteGroupsJob job = new LocusRouteJobs.RouteGroupsJob(router, costs, routes, 1, 0, 1);
        assertArrayEquals((int[])job.call(), (int[])WireCopies.copy(job).call());
    }

    /** 1 and 2 networked nodes in this JVM (real UDP on 127.0.0.1), RS and CRS: the same routes as on one node. */
    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {1, 2})
    void shouldRouteTheSameOnNetworkedNodes(final int count) {
        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(64 * 1024)
            .ipcTermBufferLength(64 * 1024));
        final List<DivvyNode> nodes = new ArrayList<>();
        try {
            for (final StealPolicy policy : StealPolicy.values()) {
                final DivvyNode master = DivvyNode.start(config(driver, "A", null, policy));
                nodes.add(master);
                for (int i = 1; i < count; i++) {
                    nodes.add(DivvyNode.start(config(driver, "B", master.endpoint(), policy)));
                }
                for (final DivvyNode node : nodes) {
                    node.awaitMembers(count, Duration.ofSeconds(20));
                }
                final LocusRouteApp app = new LocusRouteApp(120, 3000, 3, 150);
                final Problem<Routing> problem = app.prepare();
                final Routing local = Nodes.run(1, problem.root());
                // On a busy machine the master can finish a run before the peer steals: such a run says nothing
                // about routing across nodes, so it is repeated (at most 5 runs) until jobs travelled.
                for (int run = 1; run <= 5; run++) {
                    final AppResult result = ExampleRunner.runParallel(app.name(), master, problem).result();
                    assertTrue(result.passed(), result.report());
                    assertEquals(problem.describe(local), result.answer(),
                        "the same routes on " + count + " nodes, " + policy);
                    if (count == 1 || master.networkStatistics().jobsGiven() > 0) {
                        break;
                    }
                }
                if (count > 1) {
                    assertTrue(master.networkStatistics().jobsGiven() > 0, "jobs travelled to the other node");
                }
                master.close();
                for (int i = 1; i < count; i++) {
                    assertEquals(0, nodes.get(i).awaitTermination());
                }
                for (int i = nodes.size() - 1; i >= 0; i--) {
                    nodes.get(i).close();
                }
                nodes.clear();
            }
        } finally {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
            driver.close();
        }
    }

    private static NodeConfig config(final MediaDriver driver, final String site, final String join,
        final StealPolicy policy) {
        return NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(64 * 1024)
            .site(site).join(join).policy(policy)
            .heartbeatIntervalMs(100)
            .build();
    }
}
