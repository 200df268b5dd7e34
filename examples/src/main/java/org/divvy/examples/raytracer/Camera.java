package org.divvy.examples.raytracer;

/** A pinhole camera at {@code eye} looking at {@code target}, with a vertical field of view in degrees. */
public record Camera(Vec3 eye, Vec3 target, Vec3 up, double fieldOfViewDegrees) {
}
