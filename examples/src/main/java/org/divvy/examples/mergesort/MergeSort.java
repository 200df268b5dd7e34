package org.divvy.examples.mergesort;

import java.util.Arrays;

import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * Merge sort with Divvy: {@link MergeSortSequential#sort(int[], int)} with both halves spawned. Each
 * half is a copy, and each job returns its sorted part: on this node arguments are passed by
 * reference, on another node by value, so sorting in place would lose the result of a stolen job.
 */
public class MergeSort implements MergeSortSpawner {
    /** Parts of at most this many elements are sorted with {@link Arrays#sort(int[])}. */
    int cutoff;

    /** For the generated receiver codec. */
    public MergeSort() {
    }

    public MergeSort(final int cutoff) {
        this.cutoff = cutoff;
    }

    /** A sorted copy of {@code data}; {@code data} is not changed. */
    @Spawnable
    public int[] sort(final int[] data) {
        if (data.length <= cutoff) {
            return MergeSortSequential.sortLeaf(data);
        }
        final int middle = data.length >>> 1;
        final Spawn<int[]> left = spawnSort(Arrays.copyOfRange(data, 0, middle));
        final Spawn<int[]> right = spawnSort(Arrays.copyOfRange(data, middle, data.length));
        sync();
        return MergeSortSequential.merge(left.get(), right.get());
    }
}
