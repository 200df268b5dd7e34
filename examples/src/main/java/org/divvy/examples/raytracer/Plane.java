package org.divvy.examples.raytracer;

/** An infinite plane through {@code point} with unit {@code normal}. */
public record Plane(Vec3 point, Vec3 normal, Material material) {
    /** The distance {@code > epsilon} along the unit ray, or +infinity when it misses. */
    public double intersect(final Vec3 origin, final Vec3 direction, final double epsilon) {
        final double denominator = normal.dot(direction);
        if (Math.abs(denominator) < 1e-12) {
            return Double.POSITIVE_INFINITY;
        }
        final double t = point.minus(origin).dot(normal) / denominator;
        return t > epsilon ? t : Double.POSITIVE_INFINITY;
    }
}
