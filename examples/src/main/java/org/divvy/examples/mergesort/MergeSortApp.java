package org.divvy.examples.mergesort;

import java.util.Arrays;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code mergesort} command. */
@Command(name = "mergesort", mixinStandardHelpOptions = true,
    description = "Sorts a seeded random int array by merge sort, spawning both halves above a cutoff; "
        + "checked against Arrays.sort of a copy.")
public final class MergeSortApp implements ExampleApp {
    /**
     * The largest {@code --size}: 300M ints, a 1.2 GB array, so a root and a value above 1 GiB can be tried (with
     * {@code --max-message-bytes} raised above its 1 GiB default, and heaps of several times the array).
     */
    static final int MAX_SIZE = 300_000_000;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--size", paramLabel = "N", description = "array length (default: ${DEFAULT-VALUE})")
    int size = 10_000_000;

    @Option(names = "--cutoff", paramLabel = "C",
        description = "parts of at most C elements are sorted with Arrays.sort (default: ${DEFAULT-VALUE})")
    int cutoff = 100_000;

    @Option(names = "--seed", description = "random seed of the array (default: ${DEFAULT-VALUE})")
    long seed = 42;

    public MergeSortApp() {
    }

    public MergeSortApp(final int size, final int cutoff, final long seed) {
        this.size = size;
        this.cutoff = cutoff;
        this.seed = seed;
    }

    /**
     * Slices of the check's copy and comparison: a clone or an {@code Arrays.equals} of a 200 MB array is one step
     * without a safepoint poll, which held every safepoint of node 0 (its network agent too) for up to 1.2 s at the
     * end of the 50M-int run; a loop whose stride is not a constant keeps its poll between slices.
     */
    private static final int CHECK_SLICE = 1 << 18;

    static int[] copyInSlices(final int[] data) {
        final int[] copy = new int[data.length];
        int done = 0;
        while (done < data.length) {
            final int n = Math.min(CHECK_SLICE, data.length - done);
            System.arraycopy(data, done, copy, done, n);
            done += n;
        }
        return copy;
    }

    /** The first index at which {@code a} and {@code b} differ, or -1 if they are equal. */
    static int mismatchInSlices(final int[] a, final int[] b) {
        final int common = Math.min(a.length, b.length);
        int done = 0;
        while (done < common) {
            final int n = Math.min(CHECK_SLICE, common - done);
            final int at = Arrays.mismatch(a, done, done + n, b, done, done + n);
            if (at >= 0) {
                return done + at;
            }
            done += n;
        }
        return a.length == b.length ? -1 : common;
    }

    @Override
    public String name() {
        return "mergesort";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--size", size, 0, MAX_SIZE);
        Options.atLeast("--cutoff", cutoff, 1);
    }

    @Override
    public Problem<int[]> prepare() {
        validate();
        final int[] data = MergeSortSequential.randomArray(size, seed);
        final int leafSize = cutoff;
        return new Problem<>() {
            @Override
            public Root<int[]> root() {
                return Root.of(() -> new MergeSort(leafSize).spawnSort(data));
            }

            @Override
            public int[] solveSequential() {
                return MergeSortSequential.sort(data, leafSize);
            }

            @Override
            public Check check(final int[] answer) {
                final int[] expected = copyInSlices(data);
                Arrays.sort(expected);
                final int mismatch = mismatchInSlices(answer, expected);
                if (mismatch < 0) {
                    return Check.pass("equals Arrays.sort of a copy (" + expected.length + " elements)");
                }
                return Check.fail("differs from Arrays.sort of a copy at index " + mismatch + " (lengths "
                    + answer.length + " and " + expected.length + ")");
            }

            @Override
            public String describe(final int[] answer) {
                return "sorted " + answer.length + " ints"
                    + (answer.length > 0 ? ", min " + answer[0] + ", max " + answer[answer.length - 1] : "");
            }
        };
    }
}
