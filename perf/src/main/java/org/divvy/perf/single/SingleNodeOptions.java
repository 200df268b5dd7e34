package org.divvy.perf.single;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The settings of one single-node benchmark session, validated once by {@link Builder#build()}.
 */
public final class SingleNodeOptions {
    /** Timed rounds per benchmark ({@code --rounds}); odd, so the median is one real sample. */
    public static final int DEFAULT_ROUNDS = 7;
    /** Untimed runs of every contender before the rounds ({@code --warmup}): lets the JIT settle. */
    public static final int DEFAULT_WARMUP = 3;
    /** Workers of the Divvy node and parallelism of the ForkJoinPool ({@code --workers}); this machine's cores. */
    public static final int DEFAULT_WORKERS = 2;
    /**
     * Pause between two runs ({@code --settle-ms}), so the worker threads of the contender that just ran
     * have gone from spinning to parked before the next contender starts and do not steal its cores.
     */
    public static final long DEFAULT_SETTLE_MS = 50;
    /** Where the CSV goes ({@code --out}), relative to the working directory (the repository root). */
    public static final Path DEFAULT_OUT = Path.of("perf", "results", "single-node.csv");

    private final int rounds;
    private final int warmup;
    private final int workers;
    private final long settleMs;
    private final boolean quick;
    private final Set<String> only;
    private final Path out;

    private SingleNodeOptions(final Builder builder) {
        rounds = builder.rounds;
        warmup = builder.warmup;
        workers = builder.workers;
        settleMs = builder.settleMs;
        quick = builder.quick;
        only = Collections.unmodifiableSet(new LinkedHashSet<>(builder.only));
        out = builder.out;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int rounds() {
        return rounds;
    }

    public int warmup() {
        return warmup;
    }

    public int workers() {
        return workers;
    }

    public long settleMs() {
        return settleMs;
    }

    /** Tiny sizes for a smoke test: the numbers mean nothing, the answers are still checked. */
    public boolean quick() {
        return quick;
    }

    /** The benchmark ids to run; empty means all. */
    public Set<String> only() {
        return only;
    }

    /** The CSV of medians; the samples CSV and the chart are written next to it. */
    public Path out() {
        return out;
    }

    /** The per-sample CSV: {@code single-node-samples.csv} beside {@link #out()}. */
    public Path samplesOut() {
        return sibling("-samples.csv");
    }

    /** The ratio chart: {@code single-node.png} beside {@link #out()}. */
    public Path chartOut() {
        return sibling(".png");
    }

    private Path sibling(final String suffix) {
        final String name = out.getFileName().toString();
        final String stem = name.endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
        return out.resolveSibling(stem + suffix);
    }

    @Override
    public String toString() {
        return "rounds=" + rounds + " warmup=" + warmup + " workers=" + workers + " settleMs=" + settleMs +
            " quick=" + quick + " only=" + (only.isEmpty() ? "all" : String.join(",", only)) + " out=" + out;
    }

    /** Mutable builder; {@link #build()} checks every value. */
    public static final class Builder {
        private int rounds = DEFAULT_ROUNDS;
        private int warmup = DEFAULT_WARMUP;
        private int workers = DEFAULT_WORKERS;
        private long settleMs = DEFAULT_SETTLE_MS;
        private boolean quick;
        private final Set<String> only = new LinkedHashSet<>();
        private Path out = DEFAULT_OUT;

        private Builder() {
        }

        public Builder rounds(final int rounds) {
            this.rounds = rounds;
            return this;
        }

        public Builder warmup(final int warmup) {
            this.warmup = warmup;
            return this;
        }

        public Builder workers(final int workers) {
            this.workers = workers;
            return this;
        }

        public Builder settleMs(final long settleMs) {
            this.settleMs = settleMs;
            return this;
        }

        public Builder quick(final boolean quick) {
            this.quick = quick;
            return this;
        }

        /** Restricts the run to these benchmark ids (checked against the catalogue by the runner). */
        public Builder only(final Set<String> ids) {
            only.clear();
            only.addAll(ids);
            return this;
        }

        public Builder out(final Path out) {
            this.out = out;
            return this;
        }

        public SingleNodeOptions build() {
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds=" + rounds + ", must be >= 1");
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("warmup=" + warmup + ", must be >= 0");
            }
            if (workers < 1) {
                throw new IllegalArgumentException("workers=" + workers + ", must be >= 1");
            }
            if (settleMs < 0) {
                throw new IllegalArgumentException("settleMs=" + settleMs + ", must be >= 0");
            }
            if (out == null || out.getFileName() == null) {
                throw new IllegalArgumentException("out=" + out + ", must name a file");
            }
            return new SingleNodeOptions(this);
        }
    }
}
