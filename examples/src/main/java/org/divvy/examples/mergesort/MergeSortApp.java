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
        Options.inRange("--size", size, 0, 200_000_000);
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
                final int[] expected = data.clone();
                Arrays.sort(expected);
                if (Arrays.equals(answer, expected)) {
                    return Check.pass("equals Arrays.sort of a copy (" + expected.length + " elements)");
                }
                final int mismatch = Arrays.mismatch(answer, expected);
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
