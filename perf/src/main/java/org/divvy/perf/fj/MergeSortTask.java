package org.divvy.perf.fj;

import java.util.Arrays;
import java.util.concurrent.RecursiveTask;

import org.divvy.examples.mergesort.MergeSortSequential;

/**
 * Merge sort on a ForkJoinPool, split like {@code org.divvy.examples.mergesort.MergeSort}: both halves
 * copied, the left one forked, the right one sorted on this thread, then merged into a new array; parts
 * of at most {@code cutoff} elements go to {@link MergeSortSequential#sortLeaf(int[])}. The input is
 * not changed.
 */
public final class MergeSortTask extends RecursiveTask<int[]> {
    private static final long serialVersionUID = 1L;

    private final int[] data;
    private final int cutoff;

    public MergeSortTask(final int[] data, final int cutoff) {
        this.data = data;
        this.cutoff = cutoff;
    }

    @Override
    protected int[] compute() {
        if (data.length <= cutoff) {
            return MergeSortSequential.sortLeaf(data);
        }
        final int middle = data.length >>> 1;
        final MergeSortTask left = new MergeSortTask(Arrays.copyOfRange(data, 0, middle), cutoff);
        left.fork();
        final int[] right = new MergeSortTask(Arrays.copyOfRange(data, middle, data.length), cutoff).compute();
        return MergeSortSequential.merge(left.join(), right);
    }
}
