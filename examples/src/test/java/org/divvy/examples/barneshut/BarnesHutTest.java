package org.divvy.examples.barneshut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.divvy.examples.WireCopies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BarnesHutTest {
    private static double relativeError(final double[] approximate, final double[] exact) {
        final double dx = approximate[0] - exact[0];
        final double dy = approximate[1] - exact[1];
        final double dz = approximate[2] - exact[2];
        return Math.sqrt(dx * dx + dy * dy + dz * dz)
            / Math.sqrt(exact[0] * exact[0] + exact[1] * exact[1] + exact[2] * exact[2]);
    }

    @Test
    void shouldPutEveryBodyInExactlyOneLeafAndSumTheMasses() {
        final Bodies bodies = Bodies.plummer(3000, 7);
        final Octree tree = Octree.build(bodies);
        final int[] seen = new int[bodies.size()];
        for (int k = 0; k < tree.nodes(); k++) {
            if (tree.childCount()[k] == 0) {
                assertTrue(tree.count()[k] <= Octree.LEAF_BODIES, "leaf " + k);
                for (int j = tree.start()[k]; j < tree.start()[k] + tree.count()[k]; j++) {
                    seen[tree.order()[j]]++;
                }
            } else {
                double childMass = 0;
                for (int c = tree.firstChild()[k]; c < tree.firstChild()[k] + tree.childCount()[k]; c++) {
                    childMass += tree.mass()[c];
                    assertEquals(tree.side()[k] / 2, tree.side()[c]);
                }
                assertEquals(tree.mass()[k], childMass, 1e-12);
            }
        }
        final int[] once = new int[bodies.size()];
        Arrays.fill(once, 1);
        assertArrayEquals(once, seen);
        assertEquals(1.0, tree.mass()[0], 1e-12);
    }

    @Test
    void shouldMatchTheDirectSumExactlyAtThetaZeroAndCloselyAtAHalf() {
        final Bodies bodies = Bodies.plummer(2000, 3);
        final Octree tree = Octree.build(bodies);
        final double[] exact = BarnesHutSequential.accelerations(tree, 0.0, 0, bodies.size());
        final double[] approximate = BarnesHutSequential.accelerations(tree, 0.5, 0, bodies.size());
        final double[] errors = new double[bodies.size()];
        for (int i = 0; i < bodies.size(); i++) {
            final double[] direct = Octree.directAcceleration(bodies, i);
            assertTrue(relativeError(Arrays.copyOfRange(exact, 3 * i, 3 * i + 3), direct) < 1e-9, "body " + i);
            errors[i] = relativeError(Arrays.copyOfRange(approximate, 3 * i, 3 * i + 3), direct);
        }
        Arrays.sort(errors);
        // theta 0.5 with monopoles: typical errors of a few 1e-3 (Barnes and Hut 1986)
        assertTrue(errors[errors.length / 2] < 0.01, "median relative error " + errors[errors.length / 2]);
        assertTrue(errors[errors.length / 2] > 0, "theta 0.5 approximates: the test sees the opening criterion act");
    }

    @Test
    void shouldKeepTheEnergyWithinAPerCentOverTenSteps() {
        final Bodies initial = Bodies.plummer(1000, 11);
        final Bodies after = BarnesHutSequential.simulate(initial, 10, 0.01, 0.5);
        final double before = BarnesHutSequential.energy(initial);
        assertTrue(before < 0, "a bound system: " + before);
        final double drift = Math.abs((BarnesHutSequential.energy(after) - before) / before);
        assertTrue(drift < 0.01, "relative energy change " + drift);
        assertTrue(BarnesHutSequential.maxDeviation(initial, after) > 0, "the bodies moved");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldEqualTheSequentialRunBitForBit(final int workers) {
        final Bodies initial = Bodies.plummer(1500, 5);
        final Bodies expected = BarnesHutSequential.simulate(initial, 3, 0.01, 0.6);
        for (final int leaf : new int[] {1500, 200, 7}) {
            final Bodies answer = Nodes.run(workers, new BarnesHut(0.6, 0.01, leaf).simulateAll(initial, 3));
            assertEquals(0.0, BarnesHutSequential.maxDeviation(expected, answer), "leaf bodies " + leaf);
            assertArrayEquals(expected.vx(), answer.vx(), "leaf bodies " + leaf);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldEqualTheSequentialRunBitForBitSharingThePositions(final int workers) {
        final Bodies initial = Bodies.plummer(1500, 5);
        final Bodies expected = BarnesHutSequential.simulate(initial, 3, 0.01, 0.6);
        for (final int leaf : new int[] {1500, 200, 7}) {
            final Bodies answer = Nodes.run(workers, new SharingBarnesHut(0.6, 0.01, leaf).simulateAll(initial, 3));
            assertEquals(0.0, BarnesHutSequential.maxDeviation(expected, answer), "leaf bodies " + leaf);
            assertArrayEquals(expected.vx(), answer.vx(), "leaf bodies " + leaf);
        }
    }

    @Test
    void shouldKeepTheNewestPositionsWhenAnOlderWriteArrivesLate() {
        final Bodies bodies = Bodies.plummer(50, 2);
        final BodyPositions positions = new BodyPositions(bodies);
        final double[] moved = bodies.x().clone();
        moved[0] += 1;
        positions.advance(2, moved, bodies.y(), bodies.z());
        final Octree second = positions.tree();
        positions.advance(1, bodies.x(), bodies.y(), bodies.z());
        assertEquals(2, positions.iteration());
        assertEquals(moved[0], positions.x[0]);
        assertTrue(second == positions.tree(), "the tree of iteration 2 is kept");
        moved[1] += 1; // the writer's own arrays change afterwards: the replica copied them
        assertEquals(bodies.x()[1], positions.x[1]);
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final Bodies bodies = Bodies.plummer(500, 9);
        final Octree tree = Octree.build(bodies);
        final BarnesHutJobs.AccelerationsJob copy = WireCopies.copy(
            new BarnesHutJobs.AccelerationsJob(new BarnesHut(0.5, 0.01, 1000), tree, 100, 400));
        assertArrayEquals(BarnesHutSequential.accelerations(tree, 0.5, 100, 400), (double[])copy.call());
    }
}
