package org.divvy.examples.raytracer;

/**
 * How a surface shades (Phong).
 *
 * @param color        base colour
 * @param checkerColor second colour of a checkerboard, used when {@code checkerSize > 0}
 * @param checkerSize  edge of a checkerboard square in scene units; 0 for a plain surface
 * @param diffuse      diffuse coefficient
 * @param specular     specular coefficient
 * @param shininess    Phong exponent
 * @param reflectivity fraction of the colour taken from the mirror reflection, 0..1
 */
public record Material(Vec3 color, Vec3 checkerColor, double checkerSize, double diffuse, double specular,
    double shininess, double reflectivity) {

    /** The colour at {@code point}: the base colour, or a checkerboard square's colour. */
    public Vec3 colorAt(final Vec3 point) {
        if (checkerSize <= 0) {
            return color;
        }
        final long square = (long)Math.floor(point.x() / checkerSize) + (long)Math.floor(point.z() / checkerSize);
        return (square & 1) == 0 ? color : checkerColor;
    }
}
