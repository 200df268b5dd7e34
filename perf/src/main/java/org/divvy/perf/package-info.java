/**
 * Divvy's benchmarks: the single-node comparison with {@link java.util.concurrent.ForkJoinPool} and
 * sequential Java ({@link org.divvy.perf.single}), the ForkJoinPool versions of the examples
 * ({@link org.divvy.perf.fj}), the ratio charts ({@link org.divvy.perf.chart}) and the user-space WAN
 * link emulation for the multi-node harness ({@link org.divvy.perf.wan}). {@link org.divvy.perf.PerfMain}
 * is the command line.
 */
package org.divvy.perf;
