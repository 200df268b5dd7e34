/**
 * SIMULATED WORK shared by the fib, uts and knapsack kernels: a leaf that parks for a given time instead of
 * computing. Stateless; called on whichever worker runs the leaf.
 */
package org.divvy.examples.simulated;
