package org.divvy.perf.single;

/** The three ways each benchmark computes its answer, in the order a round runs them. */
public enum Contender {
    /** Divvy: one node with the configured number of workers, running the examples' spawnable code. */
    DIVVY("Divvy"),
    /** {@link java.util.concurrent.ForkJoinPool} with parallelism = workers; idiomatic fork-one-compute-other. */
    FORK_JOIN("FJP"),
    /** Plain sequential Java on the calling thread: the examples' {@code <App>Sequential} code. */
    SEQUENTIAL("Sequential");

    private final String label;

    Contender(final String label) {
        this.label = label;
    }

    /** The short name used in tables, CSV headers and charts. */
    public String label() {
        return label;
    }
}
