package org.divvy.examples.mergesort;

import org.divvy.codegen.WireReader;
import org.divvy.codegen.WireWriter;
import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.divvy.Root;
import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MergeSortTest {
    private static int[] sortedCopy(final int[] data) {
        final int[] copy = data.clone();
        Arrays.sort(copy);
        return copy;
    }

    /** The check copies and compares in slices (a safepoint can come between them): beyond the first slice too. */
    @Test
    void shouldCheckInSlicesAsAWholeCopyAndCompareWould() {
        final int[] data = MergeSortSequential.randomArray(1_000_003, 3); // several slices of 2^18 and a part
        final int[] copy = MergeSortApp.copyInSlices(data);
        assertArrayEquals(data, copy);
        assertEquals(-1, MergeSortApp.mismatchInSlices(data, copy));
        copy[900_001]++;
        assertEquals(900_001, MergeSortApp.mismatchInSlices(data, copy));
        assertEquals(1_000_000, MergeSortApp.mismatchInSlices(data, Arrays.copyOf(data, 1_000_000)), "the shorter's length");
        assertEquals(-1, MergeSortApp.mismatchInSlices(new int[0], new int[0]));
    }

    @Test
    void shouldMergeStablyAndCompletely() {
        assertArrayEquals(new int[] {1, 2, 2, 3, 5, 8}, MergeSortSequential.merge(new int[] {2, 3, 8}, new int[] {1, 2, 5}));
        assertArrayEquals(new int[] {4}, MergeSortSequential.merge(new int[0], new int[] {4}));
    }

    @Test
    void shouldSortSequentiallyWithoutChangingTheInput() {
        final int[] data = MergeSortSequential.randomArray(10_000, 7);
        final int[] original = data.clone();
        assertArrayEquals(sortedCopy(data), MergeSortSequential.sort(data, 100));
        assertArrayEquals(original, data);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldSortInParallel(final int workers) {
        for (final int size : new int[] {0, 1, 2, 3, 1000, 50_000}) {
            for (final int cutoff : new int[] {1, 16, 4096}) {
                final int[] data = MergeSortSequential.randomArray(size, size + cutoff);
                final int[] original = data.clone();
                final int[] sorted = Nodes.run(workers, Root.of(() -> new MergeSort(cutoff).spawnSort(data)));
                assertArrayEquals(sortedCopy(original), sorted, "size " + size + " cutoff " + cutoff);
                assertArrayEquals(original, data, "the input must not change");
            }
        }
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final int[] data = MergeSortSequential.randomArray(5000, 11);
        final MergeSortJobs.SortJob copy = WireCopies.copy(new MergeSortJobs.SortJob(new MergeSort(1 << 20), data));
        final int[] sorted = copy.call();
        assertArrayEquals(sortedCopy(data), sorted);
        final WireWriter writer = new WireWriter();
        copy.writeValue(writer, sorted);
        assertArrayEquals(sorted, copy.readValue(new WireReader(writer.toByteArray())), "the result travels back");
    }
}
