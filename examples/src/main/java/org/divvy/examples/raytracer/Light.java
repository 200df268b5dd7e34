package org.divvy.examples.raytracer;

/** A point light. */
public record Light(Vec3 position, Vec3 color) {
}
