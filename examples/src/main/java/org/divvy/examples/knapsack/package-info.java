/**
 * 0/1 knapsack by branch and bound with spawned take/leave branches; each job prunes with the best
 * value it knows, without shared state. Checked against dynamic programming.
 */
package org.divvy.examples.knapsack;
