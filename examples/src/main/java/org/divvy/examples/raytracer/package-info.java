/**
 * A small ray tracer (spheres and planes, Phong shading, shadows, reflections, supersampling) whose
 * image is split recursively into spawned quadrants. The scene is made of records, so it travels with
 * stolen jobs; every pixel is reproducible bit for bit.
 */
package org.divvy.examples.raytracer;
