package org.divvy.examples.barneshut;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * The bodies' positions and masses of one iteration, shared by every force job of a divide-and-share run
 * ({@link SharingBarnesHut}): the root writes the new positions once per iteration ({@link #advance}), and each
 * replica builds the octree of its positions once, on its first use in that iteration, so a job carries only its
 * iteration and body range instead of the tree. The velocities stay with the root: forces depend on positions
 * and masses only, so shipping velocities would double the write for nothing.
 *
 * <p>A stale replica would give wrong forces, not merely slower ones: the iteration number is what the force
 * jobs' guard checks ({@link SharingBarnesHut#positionsAreCurrent}). {@link #advance} sets the whole state, so
 * applying it twice (best effort, around a fetch) is harmless, and a lost one is repaired by the guard's fetch.
 */
@SharedObject
public class BodyPositions {
    int iteration;
    double[] x;
    double[] y;
    double[] z;
    double[] mass;
    /** The octree of these positions, built on the first read that needs it; not state (rebuilt where needed). */
    transient Octree tree;
    transient int treeIteration = -1;

    /** For the generated replica subclass's state. */
    public BodyPositions() {
    }

    /** Iteration 0: the positions and masses of {@code bodies}, copied. */
    public BodyPositions(final Bodies bodies) {
        this.x = bodies.x().clone();
        this.y = bodies.y().clone();
        this.z = bodies.z().clone();
        this.mass = bodies.mass().clone();
    }

    /**
     * Iteration {@code newIteration}'s positions, copied (the writer keeps changing its own arrays). Deterministic:
     * every replica holds the same numbers afterwards, and so builds the same tree. An older iteration than the
     * replica's is ignored: a write delayed on its way can arrive after a fetch brought a newer state, and must not
     * take the replica back.
     */
    @Write
    public void advance(final int newIteration, final double[] newX, final double[] newY, final double[] newZ) {
        if (newIteration < iteration) {
            return;
        }
        iteration = newIteration;
        x = newX.clone();
        y = newY.clone();
        z = newZ.clone();
        tree = null;
    }

    public int iteration() {
        return iteration;
    }

    /** The number of bodies. */
    public int size() {
        return x.length;
    }

    /**
     * The octree of this iteration's positions, built once per iteration and replica (synchronized: jobs on several
     * workers read it at once, and one builds while the others wait). The tree is never changed afterwards, and a
     * write replaces the arrays rather than changing them, so a job may keep using it after the call.
     */
    public synchronized Octree tree() {
        if (tree == null || treeIteration != iteration) {
            tree = Octree.build(new Bodies(x, y, z, null, null, null, mass));
            treeIteration = iteration;
        }
        return tree;
    }
}
