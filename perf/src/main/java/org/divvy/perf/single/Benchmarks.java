package org.divvy.perf.single;

import java.util.ArrayList;
import java.util.List;

import org.divvy.examples.uts.UtsSamples;
import org.divvy.examples.uts.UtsTree;

/**
 * The catalogue of single-node benchmarks, at full size or (quick) at tiny sizes for a smoke test. The
 * cutoffs are the examples' defaults and are the same for Divvy and ForkJoinPool.
 */
public final class Benchmarks {
    /** fib(42): calls below this run sequentially (the fib example's default threshold). */
    static final int FIB_THRESHOLD = 20;
    /** N-queens: rows from this one on are searched sequentially (the nqueens example's default). */
    static final int NQUEENS_SEQUENTIAL_DEPTH = 4;
    /** UTS geometric trees: nodes at this height or deeper are searched sequentially (the uts example's default). */
    static final int UTS_SPAWN_DEPTH = 6;
    /** Merge sort: array length and leaf size (the mergesort example's defaults). */
    static final int MERGESORT_SIZE = 10_000_000;
    static final int MERGESORT_CUTOFF = 100_000;
    static final long MERGESORT_SEED = 42;

    private static final List<String> IDS = List.of("fib35", "fib35-one", "fib42", "nqueens14", "uts", "mergesort");

    private Benchmarks() {
    }

    /** The ids, in the order a session runs them. */
    public static List<String> ids() {
        return IDS;
    }

    /** Every benchmark, full size or quick. Building them computes the reference answers of quick UTS. */
    public static List<Benchmark<?, ?>> all(final boolean quick) {
        final List<Benchmark<?, ?>> all = new ArrayList<>();
        if (quick) {
            all.add(new FibBenchmark("fib35", 20, 0));
            all.add(new FibBenchmark("fib35-one", 20, 0, true));
            all.add(new FibBenchmark("fib42", 25, 12));
            all.add(new NQueensBenchmark("nqueens14", 9, 3));
            all.add(new UtsBenchmark("uts", "T1 cut to depth 6",
                new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, 6, 4, 19, 0.0, 0, 0.5), 3, null));
            all.add(new MergeSortBenchmark("mergesort", 200_000, 10_000, MERGESORT_SEED));
        } else {
            all.add(new FibBenchmark("fib35", 35, 0));
            all.add(new FibBenchmark("fib35-one", 35, 0, true));
            all.add(new FibBenchmark("fib42", 42, FIB_THRESHOLD));
            all.add(new NQueensBenchmark("nqueens14", 14, NQUEENS_SEQUENTIAL_DEPTH));
            final UtsSamples.Sample t1 = UtsSamples.byName("T1").orElseThrow();
            all.add(new UtsBenchmark("uts", "T1", t1.tree(), UTS_SPAWN_DEPTH, t1.expected()));
            all.add(new MergeSortBenchmark("mergesort", MERGESORT_SIZE, MERGESORT_CUTOFF, MERGESORT_SEED));
        }
        return all;
    }
}
