package org.divvy.perf.single;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * The measured run times of one benchmark: every timed sample of every contender, in run order, and
 * the answer they all agreed on.
 */
public final class BenchmarkResult {
    private final String id;
    private final String description;
    private final long workUnits;
    private final String workUnitName;
    private final String answer;
    private final Map<Contender, long[]> samplesNs;

    BenchmarkResult(
        final String id,
        final String description,
        final long workUnits,
        final String workUnitName,
        final String answer,
        final Map<Contender, long[]> samplesNs) {
        this.id = id;
        this.description = description;
        this.workUnits = workUnits;
        this.workUnitName = workUnitName;
        this.answer = answer;
        this.samplesNs = new EnumMap<>(Contender.class);
        for (final Map.Entry<Contender, long[]> entry : samplesNs.entrySet()) {
            if (entry.getValue().length == 0) {
                throw new IllegalArgumentException(id + ": no samples for " + entry.getKey().label());
            }
            this.samplesNs.put(entry.getKey(), entry.getValue().clone());
        }
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    public long workUnits() {
        return workUnits;
    }

    public String workUnitName() {
        return workUnitName;
    }

    public String answer() {
        return answer;
    }

    /** Whether {@code contender} was measured (all are, unless a run was restricted). */
    public boolean has(final Contender contender) {
        return samplesNs.containsKey(contender);
    }

    /** The timed samples of {@code contender}, in the order they ran. */
    public long[] samplesNs(final Contender contender) {
        return samples(contender).clone();
    }

    /** The median run time of {@code contender}; the mean of the two middle samples for an even count. */
    public double medianNs(final Contender contender) {
        return median(samples(contender));
    }

    /** The median run time divided by the work units; NaN when the benchmark has no work unit. */
    public double medianNsPerUnit(final Contender contender) {
        return workUnits == 0 ? Double.NaN : medianNs(contender) / workUnits;
    }

    /** Divvy's median time over ForkJoinPool's: below 1 means Divvy was faster. */
    public double divvyOverForkJoin() {
        return medianNs(Contender.DIVVY) / medianNs(Contender.FORK_JOIN);
    }

    /** Sequential median over Divvy's: Divvy's speedup on this machine. */
    public double sequentialOverDivvy() {
        return medianNs(Contender.SEQUENTIAL) / medianNs(Contender.DIVVY);
    }

    /** Sequential median over ForkJoinPool's: ForkJoinPool's speedup, for context. */
    public double sequentialOverForkJoin() {
        return medianNs(Contender.SEQUENTIAL) / medianNs(Contender.FORK_JOIN);
    }

    static double median(final long[] values) {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return (sorted.length & 1) == 1 ? sorted[middle] : (sorted[middle - 1] + (double)sorted[middle]) / 2;
    }

    private long[] samples(final Contender contender) {
        final long[] samples = samplesNs.get(contender);
        if (samples == null) {
            throw new IllegalArgumentException(id + ": " + contender.label() + " was not measured");
        }
        return samples;
    }
}
