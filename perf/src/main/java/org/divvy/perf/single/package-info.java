/**
 * The single-node benchmark: Divvy (one node), {@link java.util.concurrent.ForkJoinPool} and sequential
 * Java, measured side by side in one JVM run.
 *
 * <p>Method: each benchmark warms every contender up, then runs the contenders alternately (ABCABC...)
 * for a number of rounds and reports each contender's median. Alternating spreads slow drift of the
 * machine (other processes, frequency, GC state) evenly over the contenders instead of charging it to
 * whichever ran last. Every answer is checked; a wrong one aborts the run. Everything here runs on the
 * thread that calls {@link org.divvy.perf.single.BenchmarkRunner#run}; the contenders bring their own
 * worker threads.
 */
package org.divvy.perf.single;
