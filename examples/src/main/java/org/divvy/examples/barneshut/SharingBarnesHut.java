package org.divvy.examples.barneshut;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Guard;
import org.divvy.annotations.Spawnable;

/**
 * Barnes-Hut N-body with Divvy, divide and share (Satin++'s Barnes-Hut): the positions are a shared object
 * ({@link BodyPositions}) that the root job writes once per iteration; force jobs carry only their iteration and
 * body range, and compute against the octree their node's replica builds. A job from another node runs only on a
 * replica of its own iteration: its guard ({@link #positionsAreCurrent}) checks the iteration number, and when it
 * fails (the write not arrived yet, or lost) the node waits {@code guardWaitMs}, then fetches the replica from the
 * job's source. The root keeps the velocities and does the leapfrog steps as {@link BarnesHutSequential} does;
 * every replica builds the same tree from the same positions, so the positions equal the sequential run's bit
 * for bit, as {@link BarnesHut}'s do.
 */
public class SharingBarnesHut implements SharingBarnesHutSpawner {
    double theta;
    double dt;
    /** Force jobs of at most this many bodies run without splitting. */
    int leafBodies;

    /** For the generated receiver codec. */
    public SharingBarnesHut() {
    }

    public SharingBarnesHut(final double theta, final double dt, final int leafBodies) {
        this.theta = theta;
        this.dt = dt;
        this.leafBodies = leafBodies;
    }

    /** Simulating {@code steps} steps from {@code initial} (kept), as a run's root. */
    public Root<Bodies> simulateAll(final Bodies initial, final int steps) {
        return Root.of(() -> spawnSimulate(initial, steps));
    }

    /**
     * The bodies after {@code steps} leapfrog steps. The shared positions are made here, by the job that writes
     * them (a root taken over by a new master after a crash makes its own): the first job given away registers
     * them, and each node that runs a force job fetches its replica once.
     */
    @Spawnable
    public Bodies simulate(final Bodies initial, final int steps) {
        final Bodies bodies = initial.copy();
        final BodyPositions positions = new BodyPositionsShared(bodies);
        double[] accelerations = allAccelerations(0, positions);
        for (int step = 1; step <= steps; step++) {
            BarnesHutSequential.kickAndDrift(bodies, accelerations, dt);
            positions.advance(step, bodies.x(), bodies.y(), bodies.z()); // the iteration's one write
            accelerations = allAccelerations(step, positions);
            BarnesHutSequential.kick(bodies, accelerations, dt);
        }
        return bodies;
    }

    private double[] allAccelerations(final int iteration, final BodyPositions positions) {
        final Spawn<double[]> all = spawnAccelerations(iteration, 0, positions.size(), positions);
        sync();
        return all.get();
    }

    /** The accelerations of bodies {@code from .. to - 1} at {@code iteration}'s positions, three entries per body. */
    @Spawnable
    public double[] accelerations(final int iteration, final int from, final int to, final BodyPositions positions) {
        if (to - from <= leafBodies) {
            final Octree tree = positions.tree();
            final int held = positions.iteration();
            if (held != iteration) {
                // a job from another node runs once its guard passed or its replica was fetched, and jobs spawned
                // here inherit their parent's replica; but the guard's wait can also give up (replicaWaitNs ran
                // out, the fetch failed) and the job runs on what it has: forces from another step would be
                // wrong, so the job fails loudly rather than answer wrongly
                throw new IllegalStateException("a force job of iteration " + iteration
                    + " found its replica at iteration " + held + " after its guard");
            }
            return BarnesHutSequential.accelerations(tree, theta, from, to);
        }
        final int middle = (from + to) >>> 1;
        final Spawn<double[]> low = spawnAccelerations(iteration, from, middle, positions);
        final Spawn<double[]> high = spawnAccelerations(iteration, middle, to, positions);
        sync();
        final double[] out = new double[3 * (to - from)];
        System.arraycopy(low.get(), 0, out, 0, 3 * (middle - from));
        System.arraycopy(high.get(), 0, out, 3 * (middle - from), 3 * (to - middle));
        return out;
    }

    /** A force job from another node runs on the positions of its own iteration, never an older one. */
    @Guard("accelerations")
    boolean positionsAreCurrent(final int iteration, final int from, final int to, final BodyPositions positions) {
        return positions.iteration() == iteration;
    }
}
