package org.divvy.examples.raytracer;

/** A sphere. */
public record Sphere(Vec3 center, double radius, Material material) {
    /** The nearest distance {@code > epsilon} along the unit ray, or +infinity when it misses. */
    public double intersect(final Vec3 origin, final Vec3 direction, final double epsilon) {
        final Vec3 oc = origin.minus(center);
        final double b = oc.dot(direction);
        final double c = oc.dot(oc) - radius * radius;
        final double discriminant = b * b - c;
        if (discriminant < 0) {
            return Double.POSITIVE_INFINITY;
        }
        final double root = Math.sqrt(discriminant);
        double t = -b - root;
        if (t <= epsilon) {
            t = -b + root;
        }
        return t > epsilon ? t : Double.POSITIVE_INFINITY;
    }

    public Vec3 normalAt(final Vec3 point) {
        return point.minus(center).times(1.0 / radius);
    }
}
