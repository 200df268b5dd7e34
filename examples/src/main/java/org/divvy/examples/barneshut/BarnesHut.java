package org.divvy.examples.barneshut;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * Barnes-Hut N-body with Divvy, pure divide and conquer: the root job runs the time steps; each step it builds
 * the octree and spawns the force computation over the bodies, split in halves down to {@code leafBodies}
 * bodies per job. The tree (with the positions) is an argument of every job, so a stolen job carries the whole
 * tree (Satin's Barnes-Hut without shared objects). The arithmetic per body is {@link BarnesHutSequential}'s, in
 * the same order, so the positions equal the sequential run's bit for bit.
 */
public class BarnesHut implements BarnesHutSpawner {
    double theta;
    double dt;
    /** Force jobs of at most this many bodies run without splitting. */
    int leafBodies;

    /** For the generated receiver codec. */
    public BarnesHut() {
    }

    public BarnesHut(final double theta, final double dt, final int leafBodies) {
        this.theta = theta;
        this.dt = dt;
        this.leafBodies = leafBodies;
    }

    /** Simulating {@code steps} steps from {@code initial} (kept), as a run's root. */
    public Root<Bodies> simulateAll(final Bodies initial, final int steps) {
        return Root.of(() -> spawnSimulate(initial, steps));
    }

    /** The bodies after {@code steps} leapfrog steps. */
    @Spawnable
    public Bodies simulate(final Bodies initial, final int steps) {
        final Bodies bodies = initial.copy();
        double[] accelerations = allAccelerations(Octree.build(bodies));
        for (int step = 0; step < steps; step++) {
            BarnesHutSequential.kickAndDrift(bodies, accelerations, dt);
            accelerations = allAccelerations(Octree.build(bodies));
            BarnesHutSequential.kick(bodies, accelerations, dt);
        }
        return bodies;
    }

    private double[] allAccelerations(final Octree tree) {
        final Spawn<double[]> all = spawnAccelerations(tree, 0, tree.bodyX().length);
        sync();
        return all.get();
    }

    /** The accelerations of bodies {@code from .. to - 1} in {@code tree}, three entries per body. */
    @Spawnable
    public double[] accelerations(final Octree tree, final int from, final int to) {
        if (to - from <= leafBodies) {
            return BarnesHutSequential.accelerations(tree, theta, from, to);
        }
        final int middle = (from + to) >>> 1;
        final Spawn<double[]> low = spawnAccelerations(tree, from, middle);
        final Spawn<double[]> high = spawnAccelerations(tree, middle, to);
        sync();
        final double[] out = new double[3 * (to - from)];
        System.arraycopy(low.get(), 0, out, 0, 3 * (middle - from));
        System.arraycopy(high.get(), 0, out, 3 * (middle - from), 3 * (to - middle));
        return out;
    }
}
