package org.divvy.examples.raytracer;

/**
 * Traces the rays of one scene: Phong shading (ambient, diffuse, specular), hard shadows from every
 * light, and mirror reflections down to the scene's depth.
 *
 * <p>Every pixel is a pure function of the scene and its coordinates, and the arithmetic is
 * reproducible ({@link Math#sqrt} is exact, powers use {@link StrictMath}), so a tile rendered on any
 * worker or node is bit-identical to the same tile of a sequential render.
 */
public final class Tracer {
    /** Offset along a ray that keeps a surface from shadowing or reflecting itself. */
    private static final double EPSILON = 1e-6;

    private final Scene scene;
    private final Vec3 eye;
    private final Vec3 right;
    private final Vec3 up;
    private final Vec3 forward;
    private final double halfHeight;
    private final double halfWidth;

    public Tracer(final Scene scene) {
        this.scene = scene;
        final Camera camera = scene.camera();
        eye = camera.eye();
        forward = camera.target().minus(eye).normalized();
        right = forward.cross(camera.up()).normalized();
        up = right.cross(forward);
        halfHeight = StrictMath.tan(Math.toRadians(camera.fieldOfViewDegrees()) / 2);
        halfWidth = halfHeight * scene.width() / scene.height();
    }

    /** The pixel at column {@code px}, row {@code py} (row 0 at the top), as 0xRRGGBB. */
    public int pixel(final int px, final int py) {
        final int samples = scene.samplesPerAxis();
        Vec3 sum = Vec3.ZERO;
        for (int sy = 0; sy < samples; sy++) {
            for (int sx = 0; sx < samples; sx++) {
                final double u = (2 * (px + (sx + 0.5) / samples) / scene.width() - 1) * halfWidth;
                final double v = (1 - 2 * (py + (sy + 0.5) / samples) / scene.height()) * halfHeight;
                final Vec3 direction = forward.plus(right.times(u)).plus(up.times(v)).normalized();
                sum = sum.plus(trace(eye, direction, 0));
            }
        }
        final Vec3 color = sum.times(1.0 / (samples * samples));
        return channel(color.x()) << 16 | channel(color.y()) << 8 | channel(color.z());
    }

    private static int channel(final double value) {
        return (int)Math.round(Math.min(1.0, Math.max(0.0, value)) * 255);
    }

    private Vec3 trace(final Vec3 origin, final Vec3 direction, final int depth) {
        double nearest = Double.POSITIVE_INFINITY;
        Sphere hitSphere = null;
        Plane hitPlane = null;
        for (final Sphere sphere : scene.spheres()) {
            final double t = sphere.intersect(origin, direction, EPSILON);
            if (t < nearest) {
                nearest = t;
                hitSphere = sphere;
            }
        }
        for (final Plane plane : scene.planes()) {
            final double t = plane.intersect(origin, direction, EPSILON);
            if (t < nearest) {
                nearest = t;
                hitPlane = plane;
                hitSphere = null;
            }
        }
        if (nearest == Double.POSITIVE_INFINITY) {
            return scene.background();
        }
        final Vec3 point = origin.plus(direction.times(nearest));
        final Material material = hitSphere != null ? hitSphere.material() : hitPlane.material();
        Vec3 normal = hitSphere != null ? hitSphere.normalAt(point) : hitPlane.normal();
        if (normal.dot(direction) > 0) {
            normal = normal.times(-1);
        }
        final Vec3 base = material.colorAt(point);
        Vec3 color = scene.ambient().times(base);
        for (final Light light : scene.lights()) {
            final Vec3 toLight = light.position().minus(point);
            final double distance = toLight.length();
            final Vec3 l = toLight.times(1.0 / distance);
            final double lambert = normal.dot(l);
            if (lambert <= 0 || inShadow(point, l, distance)) {
                continue;
            }
            color = color.plus(base.times(light.color()).times(material.diffuse() * lambert));
            final Vec3 reflectedLight = normal.times(2 * lambert).minus(l);
            final double highlight = -reflectedLight.dot(direction);
            if (highlight > 0) {
                color = color.plus(light.color().times(material.specular()
                    * StrictMath.pow(highlight, material.shininess())));
            }
        }
        if (material.reflectivity() > 0 && depth < scene.maxReflections()) {
            final Vec3 mirrored = direction.minus(normal.times(2 * direction.dot(normal)));
            final Vec3 reflection = trace(point.plus(normal.times(EPSILON)), mirrored, depth + 1);
            color = color.times(1 - material.reflectivity()).plus(reflection.times(material.reflectivity()));
        }
        return color;
    }

    private boolean inShadow(final Vec3 point, final Vec3 toLight, final double distance) {
        final Vec3 origin = point.plus(toLight.times(EPSILON * 10));
        for (final Sphere sphere : scene.spheres()) {
            if (sphere.intersect(origin, toLight, EPSILON) < distance) {
                return true;
            }
        }
        for (final Plane plane : scene.planes()) {
            if (plane.intersect(origin, toLight, EPSILON) < distance) {
                return true;
            }
        }
        return false;
    }
}
