package org.divvy.examples.mergesort;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Merge sort, sequentially: split in halves (copies), sort each, merge into a new array; below the
 * cutoff, {@link Arrays#sort(int[])}. Every call returns a new sorted array and leaves its argument
 * untouched, the shape {@link MergeSort} needs (a stolen job gets a copy of its argument, so results
 * must come back as return values).
 */
public final class MergeSortSequential {
    private MergeSortSequential() {
    }

    /** A sorted copy of {@code data}. */
    public static int[] sort(final int[] data, final int cutoff) {
        if (data.length <= cutoff) {
            return sortLeaf(data);
        }
        final int middle = data.length >>> 1;
        final int[] left = sort(Arrays.copyOfRange(data, 0, middle), cutoff);
        final int[] right = sort(Arrays.copyOfRange(data, middle, data.length), cutoff);
        return merge(left, right);
    }

    /** A sorted copy of a part at or below the cutoff. */
    public static int[] sortLeaf(final int[] data) {
        final int[] sorted = data.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    /** The merge of two sorted arrays into a new sorted array; stable (left first on ties). */
    public static int[] merge(final int[] left, final int[] right) {
        final int[] merged = new int[left.length + right.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < left.length && j < right.length) {
            merged[k++] = left[i] <= right[j] ? left[i++] : right[j++];
        }
        System.arraycopy(left, i, merged, k, left.length - i);
        k += left.length - i;
        System.arraycopy(right, j, merged, k, right.length - j);
        return merged;
    }

    /** {@code length} seeded random ints over the whole int range. */
    public static int[] randomArray(final int length, final long seed) {
        return new SplittableRandom(seed).ints(length).toArray();
    }
}
