package org.divvy.examples.barneshut;

import java.util.SplittableRandom;

/**
 * The state of an N-body system: positions, velocities and masses, one array entry per body. A record of arrays,
 * so it travels with stolen jobs. Treated as a value: a step makes a new one.
 */
public record Bodies(double[] x, double[] y, double[] z, double[] vx, double[] vy, double[] vz, double[] mass) {
    public int size() {
        return x.length;
    }

    public Bodies copy() {
        return new Bodies(x.clone(), y.clone(), z.clone(), vx.clone(), vy.clone(), vz.clone(), mass.clone());
    }

    /**
     * A Plummer sphere of {@code n} equal-mass bodies drawn from a seeded generator (Aarseth, Hénon and Wielen
     * 1974), in standard N-body units (G = 1, total mass 1, virial radius 1), moved to its centre-of-mass frame.
     */
    public static Bodies plummer(final int n, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final double[] x = new double[n];
        final double[] y = new double[n];
        final double[] z = new double[n];
        final double[] vx = new double[n];
        final double[] vy = new double[n];
        final double[] vz = new double[n];
        final double[] mass = new double[n];
        final double scale = 3 * Math.PI / 16; // Plummer scale length of a unit virial radius
        for (int i = 0; i < n; i++) {
            mass[i] = 1.0 / n;
            double r;
            do { // radii beyond 10 scale lengths make the box huge for little mass (0.1% of it)
                r = 1.0 / Math.sqrt(Math.pow(random.nextDouble(1e-10, 1.0), -2.0 / 3.0) - 1.0);
            } while (r > 10);
            final double[] direction = direction(random);
            x[i] = r * direction[0] * scale;
            y[i] = r * direction[1] * scale;
            z[i] = r * direction[2] * scale;
            double q;
            double g;
            do { // von Neumann rejection for the speed as a fraction of the escape speed
                q = random.nextDouble();
                g = random.nextDouble() * 0.1;
            } while (g > q * q * Math.pow(1 - q * q, 3.5));
            final double speed = q * Math.sqrt(2.0) * Math.pow(1 + r * r, -0.25) / Math.sqrt(scale);
            final double[] heading = direction(random);
            vx[i] = speed * heading[0];
            vy[i] = speed * heading[1];
            vz[i] = speed * heading[2];
        }
        centre(x, mass);
        centre(y, mass);
        centre(z, mass);
        centre(vx, mass);
        centre(vy, mass);
        centre(vz, mass);
        return new Bodies(x, y, z, vx, vy, vz, mass);
    }

    private static double[] direction(final SplittableRandom random) {
        final double cosTheta = random.nextDouble(-1.0, 1.0);
        final double sinTheta = Math.sqrt(1 - cosTheta * cosTheta);
        final double phi = random.nextDouble(0, 2 * Math.PI);
        return new double[] {sinTheta * Math.cos(phi), sinTheta * Math.sin(phi), cosTheta};
    }

    private static void centre(final double[] values, final double[] mass) {
        double weighted = 0;
        double total = 0;
        for (int i = 0; i < values.length; i++) {
            weighted += values[i] * mass[i];
            total += mass[i];
        }
        final double mean = weighted / total;
        for (int i = 0; i < values.length; i++) {
            values[i] -= mean;
        }
    }
}
