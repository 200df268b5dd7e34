/**
 * The travelling salesman by branch and bound with Held-Karp's 1-tree penalties, the best tour length passed
 * down the tree (no shared state); TSPLIB instances shipped as resources with their published optima, and
 * seeded random ones, checked against Held and Karp's dynamic programme where it fits.
 */
package org.divvy.examples.tsp;
