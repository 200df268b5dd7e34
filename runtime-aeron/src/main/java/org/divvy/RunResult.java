package org.divvy;

/**
 * What a run produced: the root's value, the wall time from submitting the root until it completed,
 * and the statistics of the run.
 *
 * @param value       the root task's return value
 * @param elapsedNs   wall-clock time of the run, in nanoseconds
 * @param statistics  counters of the run, summed over workers
 */
public record RunResult<T>(T value, long elapsedNs, RunStatistics statistics) {
}
