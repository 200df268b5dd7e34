/**
 * {@code divvy-perf uts}: the UTS rows of issue 10 side by side in one run: the kernel's rate on one core
 * (sequential and one Divvy worker, in this JVM), the speedup of 2 node processes over 1 on a larger tree, and the
 * resident memory of every node process of a 4-node {@code divvy run}.
 */
package org.divvy.perf.uts;
