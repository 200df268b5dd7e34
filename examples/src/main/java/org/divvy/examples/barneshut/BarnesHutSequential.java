package org.divvy.examples.barneshut;

/**
 * Barnes-Hut N-body, sequentially: per step, build the octree of the current positions, compute every body's
 * acceleration from it, and advance by a leapfrog step (kick-drift-kick: half a kick with the old accelerations,
 * a drift, then half a kick with the new ones). The Divvy version does exactly the same arithmetic, with the
 * accelerations of body ranges computed by spawned jobs.
 */
public final class BarnesHutSequential {
    private BarnesHutSequential() {
    }

    /** The bodies after {@code steps} steps of {@code dt}, with opening angle {@code theta}; {@code initial} is kept. */
    public static Bodies simulate(final Bodies initial, final int steps, final double dt, final double theta) {
        final Bodies bodies = initial.copy();
        double[] accelerations = accelerations(Octree.build(bodies), theta, 0, bodies.size());
        for (int step = 0; step < steps; step++) {
            kickAndDrift(bodies, accelerations, dt);
            accelerations = accelerations(Octree.build(bodies), theta, 0, bodies.size());
            kick(bodies, accelerations, dt);
        }
        return bodies;
    }

    /** The accelerations of bodies {@code from .. to - 1}, three entries per body (x, y, z). */
    public static double[] accelerations(final Octree tree, final double theta, final int from, final int to) {
        final double[] out = new double[3 * (to - from)];
        final int[] stack = new int[Octree.stackSize()];
        for (int i = from; i < to; i++) {
            tree.acceleration(i, theta, stack, out, 3 * (i - from));
        }
        return out;
    }

    /** Half a kick with the accelerations of the step's start, then a full drift. */
    public static void kickAndDrift(final Bodies bodies, final double[] accelerations, final double dt) {
        kick(bodies, accelerations, dt);
        for (int i = 0; i < bodies.size(); i++) {
            bodies.x()[i] += dt * bodies.vx()[i];
            bodies.y()[i] += dt * bodies.vy()[i];
            bodies.z()[i] += dt * bodies.vz()[i];
        }
    }

    /** Half a kick: velocities change by {@code a * dt / 2}. */
    public static void kick(final Bodies bodies, final double[] accelerations, final double dt) {
        final double halfStep = dt / 2;
        for (int i = 0; i < bodies.size(); i++) {
            bodies.vx()[i] += halfStep * accelerations[3 * i];
            bodies.vy()[i] += halfStep * accelerations[3 * i + 1];
            bodies.vz()[i] += halfStep * accelerations[3 * i + 2];
        }
    }

    /** Kinetic plus potential energy by direct summation (O(N^2), with the same softening): a check, not a step. */
    public static double energy(final Bodies bodies) {
        double kinetic = 0;
        double potential = 0;
        for (int i = 0; i < bodies.size(); i++) {
            kinetic += 0.5 * bodies.mass()[i] * (bodies.vx()[i] * bodies.vx()[i] + bodies.vy()[i] * bodies.vy()[i]
                + bodies.vz()[i] * bodies.vz()[i]);
            for (int j = i + 1; j < bodies.size(); j++) {
                final double dx = bodies.x()[i] - bodies.x()[j];
                final double dy = bodies.y()[i] - bodies.y()[j];
                final double dz = bodies.z()[i] - bodies.z()[j];
                potential -= bodies.mass()[i] * bodies.mass()[j]
                    / Math.sqrt(dx * dx + dy * dy + dz * dz + Octree.SOFTENING_SQUARED);
            }
        }
        return kinetic + potential;
    }

    /** The largest distance between a body's positions in {@code a} and in {@code b}. */
    public static double maxDeviation(final Bodies a, final Bodies b) {
        double max = 0;
        for (int i = 0; i < a.size(); i++) {
            final double dx = a.x()[i] - b.x()[i];
            final double dy = a.y()[i] - b.y()[i];
            final double dz = a.z()[i] - b.z()[i];
            max = Math.max(max, Math.sqrt(dx * dx + dy * dy + dz * dz));
        }
        return max;
    }
}
