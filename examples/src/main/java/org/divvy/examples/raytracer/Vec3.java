package org.divvy.examples.raytracer;

/** A 3-vector: a point, a direction or an RGB colour (components 0..1). */
public record Vec3(double x, double y, double z) {
    public static final Vec3 ZERO = new Vec3(0, 0, 0);

    public Vec3 plus(final Vec3 o) {
        return new Vec3(x + o.x, y + o.y, z + o.z);
    }

    public Vec3 minus(final Vec3 o) {
        return new Vec3(x - o.x, y - o.y, z - o.z);
    }

    public Vec3 times(final double s) {
        return new Vec3(x * s, y * s, z * s);
    }

    /** Component-wise product (colour filtering). */
    public Vec3 times(final Vec3 o) {
        return new Vec3(x * o.x, y * o.y, z * o.z);
    }

    public double dot(final Vec3 o) {
        return x * o.x + y * o.y + z * o.z;
    }

    public Vec3 cross(final Vec3 o) {
        return new Vec3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x);
    }

    public double length() {
        return Math.sqrt(dot(this));
    }

    public Vec3 normalized() {
        return times(1.0 / length());
    }
}
