package org.divvy.examples.barneshut;

import java.util.Arrays;

/**
 * A Barnes-Hut octree over the bodies' positions, flattened into arrays so it travels with a job as a handful of
 * arrays: node {@code k} is a cube of side {@code side[k]} with its bodies' total {@code mass[k]} at their
 * centre of mass; an internal node's children are the nodes {@code firstChild[k] .. firstChild[k] +
 * childCount[k] - 1}; a leaf ({@code childCount[k] == 0}) holds up to {@link #LEAF_BODIES} bodies, the entries
 * {@code start[k] .. start[k] + count[k] - 1} of {@code order}. The bodies' positions and masses are in the tree
 * too, as the force computation needs them.
 */
public record Octree(double[] comX, double[] comY, double[] comZ, double[] mass, double[] side, int[] firstChild,
    int[] childCount, int[] start, int[] count, int[] order, double[] bodyX, double[] bodyY, double[] bodyZ,
    double[] bodyMass) {

    /** A leaf holds at most this many bodies (fewer nodes, and bodies at one point cannot split forever). */
    public static final int LEAF_BODIES = 8;
    /** Cubes are not split below this depth; a deeper leaf holds what reaches it. */
    public static final int MAX_DEPTH = 40;
    /** Plummer softening length squared: keeps close encounters finite at this N. */
    public static final double SOFTENING_SQUARED = 0.025 * 0.025;

    public int nodes() {
        return side.length;
    }

    /** Builds the tree of the bodies' current positions; deterministic (same positions, same tree). */
    public static Octree build(final Bodies bodies) {
        return new Builder(bodies).build();
    }

    /**
     * Writes the acceleration of body {@code i} into {@code out[offset .. offset + 2]}: the tree walked from the
     * root, a node accepted as one mass at its centre when {@code side / distance < theta}, leaves summed body by
     * body (body {@code i} itself skipped). {@code stack} is scratch of at least {@link #stackSize()} entries.
     */
    public void acceleration(final int i, final double theta, final int[] stack, final double[] out, final int offset) {
        final double px = bodyX[i];
        final double py = bodyY[i];
        final double pz = bodyZ[i];
        final double thetaSquared = theta * theta;
        double ax = 0;
        double ay = 0;
        double az = 0;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            final int k = stack[--top];
            if (childCount[k] == 0) {
                for (int j = start[k]; j < start[k] + count[k]; j++) {
                    final int b = order[j];
                    if (b == i) {
                        continue;
                    }
                    final double dx = bodyX[b] - px;
                    final double dy = bodyY[b] - py;
                    final double dz = bodyZ[b] - pz;
                    final double r2 = dx * dx + dy * dy + dz * dz + SOFTENING_SQUARED;
                    final double f = bodyMass[b] / (r2 * Math.sqrt(r2));
                    ax += f * dx;
                    ay += f * dy;
                    az += f * dz;
                }
                continue;
            }
            final double dx = comX[k] - px;
            final double dy = comY[k] - py;
            final double dz = comZ[k] - pz;
            final double d2 = dx * dx + dy * dy + dz * dz;
            if (side[k] * side[k] < thetaSquared * d2) {
                final double r2 = d2 + SOFTENING_SQUARED;
                final double f = mass[k] / (r2 * Math.sqrt(r2));
                ax += f * dx;
                ay += f * dy;
                az += f * dz;
            } else {
                for (int c = firstChild[k] + childCount[k] - 1; c >= firstChild[k]; c--) {
                    stack[top++] = c;
                }
            }
        }
        out[offset] = ax;
        out[offset + 1] = ay;
        out[offset + 2] = az;
    }

    /** Scratch needed by {@link #acceleration}: at most 7 siblings wait per level, plus the node taken. */
    public static int stackSize() {
        return 8 * (MAX_DEPTH + 2);
    }

    /** The direct O(N) sum for body {@code i} with the same softening: the reference the tree approximates. */
    public static double[] directAcceleration(final Bodies bodies, final int i) {
        double ax = 0;
        double ay = 0;
        double az = 0;
        for (int b = 0; b < bodies.size(); b++) {
            if (b == i) {
                continue;
            }
            final double dx = bodies.x()[b] - bodies.x()[i];
            final double dy = bodies.y()[b] - bodies.y()[i];
            final double dz = bodies.z()[b] - bodies.z()[i];
            final double r2 = dx * dx + dy * dy + dz * dz + SOFTENING_SQUARED;
            final double f = bodies.mass()[b] / (r2 * Math.sqrt(r2));
            ax += f * dx;
            ay += f * dy;
            az += f * dz;
        }
        return new double[] {ax, ay, az};
    }

    private static final class Builder {
        private final Bodies bodies;
        private final int[] order;
        private final int[] scratch;
        private double[] comX = new double[64];
        private double[] comY = new double[64];
        private double[] comZ = new double[64];
        private double[] mass = new double[64];
        private double[] side = new double[64];
        private int[] firstChild = new int[64];
        private int[] childCount = new int[64];
        private int[] start = new int[64];
        private int[] count = new int[64];
        private int nodes;

        Builder(final Bodies bodies) {
            this.bodies = bodies;
            this.order = new int[bodies.size()];
            this.scratch = new int[bodies.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
        }

        Octree build() {
            double minX = Double.MAX_VALUE;
            double minY = Double.MAX_VALUE;
            double minZ = Double.MAX_VALUE;
            double maxX = -Double.MAX_VALUE;
            double maxY = -Double.MAX_VALUE;
            double maxZ = -Double.MAX_VALUE;
            for (int i = 0; i < bodies.size(); i++) {
                minX = Math.min(minX, bodies.x()[i]);
                minY = Math.min(minY, bodies.y()[i]);
                minZ = Math.min(minZ, bodies.z()[i]);
                maxX = Math.max(maxX, bodies.x()[i]);
                maxY = Math.max(maxY, bodies.y()[i]);
                maxZ = Math.max(maxZ, bodies.z()[i]);
            }
            final double size = Math.max(maxX - minX, Math.max(maxY - minY, maxZ - minZ)) * 1.0001 + 1e-9;
            final int root = allocate(1);
            fill(root, 0, bodies.size(), minX, minY, minZ, size, 0);
            return new Octree(Arrays.copyOf(comX, nodes), Arrays.copyOf(comY, nodes), Arrays.copyOf(comZ, nodes),
                Arrays.copyOf(mass, nodes), Arrays.copyOf(side, nodes), Arrays.copyOf(firstChild, nodes),
                Arrays.copyOf(childCount, nodes), Arrays.copyOf(start, nodes), Arrays.copyOf(count, nodes), order,
                bodies.x(), bodies.y(), bodies.z(), bodies.mass());
        }

        private int allocate(final int how) {
            while (nodes + how > side.length) {
                final int capacity = side.length * 2;
                comX = Arrays.copyOf(comX, capacity);
                comY = Arrays.copyOf(comY, capacity);
                comZ = Arrays.copyOf(comZ, capacity);
                mass = Arrays.copyOf(mass, capacity);
                side = Arrays.copyOf(side, capacity);
                firstChild = Arrays.copyOf(firstChild, capacity);
                childCount = Arrays.copyOf(childCount, capacity);
                start = Arrays.copyOf(start, capacity);
                count = Arrays.copyOf(count, capacity);
            }
            final int first = nodes;
            nodes += how;
            return first;
        }

        /** Node {@code k}: the cube at (x0, y0, z0) of side {@code size} holding {@code order[from .. to)}. */
        private void fill(final int k, final int from, final int to, final double x0, final double y0, final double z0,
            final double size, final int depth) {
            side[k] = size;
            start[k] = from;
            count[k] = to - from;
            double m = 0;
            double mx = 0;
            double my = 0;
            double mz = 0;
            for (int j = from; j < to; j++) {
                final int b = order[j];
                final double bm = bodies.mass()[b];
                m += bm;
                mx += bm * bodies.x()[b];
                my += bm * bodies.y()[b];
                mz += bm * bodies.z()[b];
            }
            mass[k] = m;
            comX[k] = mx / m;
            comY[k] = my / m;
            comZ[k] = mz / m;
            if (to - from <= LEAF_BODIES || depth >= MAX_DEPTH) {
                firstChild[k] = -1;
                childCount[k] = 0;
                return;
            }
            // partition order[from .. to) into the 8 octants (stable: a counting sort through scratch)
            final double half = size / 2;
            final int[] octantStart = new int[9];
            for (int j = from; j < to; j++) {
                octantStart[octant(order[j], x0 + half, y0 + half, z0 + half) + 1]++;
            }
            for (int o = 0; o < 8; o++) {
                octantStart[o + 1] += octantStart[o];
            }
            final int[] next = Arrays.copyOf(octantStart, 8);
            for (int j = from; j < to; j++) {
                final int b = order[j];
                scratch[from + next[octant(b, x0 + half, y0 + half, z0 + half)]++] = b;
            }
            System.arraycopy(scratch, from, order, from, to - from);
            int children = 0;
            for (int o = 0; o < 8; o++) {
                if (octantStart[o + 1] > octantStart[o]) {
                    children++;
                }
            }
            final int first = allocate(children); // siblings side by side, allocated before any grandchild
            firstChild[k] = first;
            childCount[k] = children;
            int c = first;
            for (int o = 0; o < 8; o++) {
                if (octantStart[o + 1] > octantStart[o]) {
                    fill(c++, from + octantStart[o], from + octantStart[o + 1], x0 + ((o & 1) != 0 ? half : 0),
                        y0 + ((o & 2) != 0 ? half : 0), z0 + ((o & 4) != 0 ? half : 0), half, depth + 1);
                }
            }
        }

        private int octant(final int b, final double midX, final double midY, final double midZ) {
            return (bodies.x()[b] >= midX ? 1 : 0) | (bodies.y()[b] >= midY ? 2 : 0) | (bodies.z()[b] >= midZ ? 4 : 0);
        }
    }
}
