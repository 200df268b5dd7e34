/**
 * Barnes-Hut N-body simulation of a seeded Plummer sphere: an octree per step, forces of body ranges in spawned
 * jobs that carry the tree, leapfrog steps; checked against the sequential run (bit for bit).
 */
package org.divvy.examples.barneshut;
