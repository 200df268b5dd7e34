package org.divvy.examples.raytracer;

/**
 * Everything a render needs; a record of records and arrays, so it travels with stolen jobs.
 *
 * @param camera         the view
 * @param spheres        the spheres
 * @param planes         the planes
 * @param lights         the point lights (each casts shadows)
 * @param ambient        light reaching every surface
 * @param background     colour of rays that hit nothing
 * @param width          image width in pixels
 * @param height         image height in pixels
 * @param maxReflections depth of mirror reflections
 * @param samplesPerAxis supersampling: each pixel averages samplesPerAxis^2 rays
 */
public record Scene(Camera camera, Sphere[] spheres, Plane[] planes, Light[] lights, Vec3 ambient, Vec3 background,
    int width, int height, int maxReflections, int samplesPerAxis) {

    /** The example scene: a checkered floor, mirror and matte spheres, two lights. */
    public static Scene demo(final int width, final int height, final int samplesPerAxis) {
        final Material floor = new Material(new Vec3(0.9, 0.9, 0.9), new Vec3(0.15, 0.15, 0.2), 1.0, 0.8, 0.1, 10, 0.25);
        final Material mirror = new Material(new Vec3(0.95, 0.95, 0.95), Vec3.ZERO, 0, 0.1, 0.9, 200, 0.8);
        final Material red = new Material(new Vec3(0.9, 0.15, 0.1), Vec3.ZERO, 0, 0.9, 0.5, 50, 0.15);
        final Material green = new Material(new Vec3(0.15, 0.8, 0.25), Vec3.ZERO, 0, 0.9, 0.4, 30, 0.1);
        final Material blue = new Material(new Vec3(0.15, 0.3, 0.9), Vec3.ZERO, 0, 0.8, 0.6, 80, 0.3);
        final Material gold = new Material(new Vec3(0.9, 0.7, 0.2), Vec3.ZERO, 0, 0.7, 0.8, 120, 0.45);
        final Sphere[] spheres = {
            new Sphere(new Vec3(0, 1.5, 0), 1.5, mirror),
            new Sphere(new Vec3(-3.2, 1.0, 1.2), 1.0, red),
            new Sphere(new Vec3(3.0, 1.2, 0.8), 1.2, blue),
            new Sphere(new Vec3(-1.3, 0.6, 2.8), 0.6, green),
            new Sphere(new Vec3(1.6, 0.5, 3.0), 0.5, gold),
            new Sphere(new Vec3(0.5, 2.2, -4.0), 2.2, gold),
        };
        final Plane[] planes = {new Plane(new Vec3(0, 0, 0), new Vec3(0, 1, 0), floor)};
        final Light[] lights = {
            new Light(new Vec3(-6, 10, 8), new Vec3(0.8, 0.8, 0.75)),
            new Light(new Vec3(8, 6, 4), new Vec3(0.35, 0.35, 0.45)),
        };
        final Camera camera = new Camera(new Vec3(0, 3.2, 10), new Vec3(0, 1.2, 0), new Vec3(0, 1, 0), 45);
        return new Scene(camera, spheres, planes, lights, new Vec3(0.08, 0.08, 0.1), new Vec3(0.45, 0.6, 0.85),
            width, height, 5, samplesPerAxis);
    }
}
