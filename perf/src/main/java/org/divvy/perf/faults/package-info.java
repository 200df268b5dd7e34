/**
 * The fault-tolerance figures (issue 8, performance part): real multi-process {@code divvy run}s with real
 * SIGKILLs, side by side in one run. {@link org.divvy.perf.faults.FaultsMain} runs the scenarios of
 * {@link org.divvy.perf.faults.Scenario} round by round (interleaved), parses each run's output
 * ({@link org.divvy.perf.faults.RunSample}) and writes a CSV of medians, a CSV of every sample and a PNG per figure.
 */
package org.divvy.perf.faults;
