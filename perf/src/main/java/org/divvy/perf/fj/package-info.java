/**
 * The examples written for {@link java.util.concurrent.ForkJoinPool}, the baseline Divvy is measured
 * against. Each task splits exactly where the Divvy version spawns, uses the same cutoff and runs the
 * same sequential leaves (the examples' {@code <App>Sequential} code), in the idiomatic
 * {@link java.util.concurrent.RecursiveTask} style: fork all children but the last, compute the last
 * on this thread, then join the forked ones, newest first (the order their LIFO deque pops them).
 */
package org.divvy.perf.fj;
