package org.divvy.perf.single;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

import org.divvy.examples.mergesort.MergeSort;
import org.divvy.examples.mergesort.MergeSortSequential;
import org.divvy.perf.fj.MergeSortTask;

/**
 * Merge sort of a seeded random {@code int[]}, both halves a task above the cutoff. Every version
 * returns a new sorted array and leaves its input untouched, so all runs share one input array (checked
 * by its hash after every run); the answer must equal {@link Arrays#sort(int[])} of a copy. The per-unit time is per element.
 */
final class MergeSortBenchmark extends Benchmark<int[], int[]> {
    private final int size;
    private final int cutoff;
    private final long seed;
    private int[] input;
    private int[] expected;
    private int inputHash;

    MergeSortBenchmark(final String id, final int size, final int cutoff, final long seed) {
        super(id, "merge sort of " + size + " random ints (seed " + seed + "), parts <= " + cutoff + " by Arrays.sort",
            size, "element");
        this.size = size;
        this.cutoff = cutoff;
        this.seed = seed;
    }

    @Override
    public int[] newInput() {
        if (input == null) {
            input = MergeSortSequential.randomArray(size, seed);
            inputHash = Arrays.hashCode(input);
            expected = input.clone();
            Arrays.sort(expected);
        }
        return input;
    }

    @Override
    public int[] runSequential(final int[] data) {
        return MergeSortSequential.sort(data, cutoff);
    }

    @Override
    public int[] runForkJoin(final ForkJoinPool pool, final int[] data) {
        return pool.invoke(new MergeSortTask(data, cutoff));
    }

    @Override
    public int[] runDivvy(final DivvyEngine divvy, final int[] data) {
        return divvy.run(() -> new MergeSort(cutoff).sort(data));
    }

    @Override
    public void checkAnswer(final Contender contender, final int[] answer) {
        if (answer == null || answer.length != size) {
            throw new WrongAnswerException(id(), contender,
                "sorted array has " + (answer == null ? "no" : answer.length) + " elements, expected " + size);
        }
        final int mismatch = Arrays.mismatch(answer, expected);
        if (mismatch >= 0) {
            throw new WrongAnswerException(id(), contender,
                "element " + mismatch + " is " + answer[mismatch] + ", expected " + expected[mismatch]);
        }
        if (Arrays.hashCode(input) != inputHash) {
            throw new WrongAnswerException(id(), contender, "the input array was changed (later runs would sort other data)");
        }
    }

    @Override
    public String describeAnswer(final int[] answer) {
        return "sorted " + answer.length + " ints, equal to Arrays.sort";
    }
}
