package org.divvy.examples.nqueens;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code nqueens} command. */
@Command(name = "nqueens", mixinStandardHelpOptions = true,
    description = "Counts all N-queens solutions with bitmasks, spawning per queen placement in the first rows; "
        + "checked against the known counts for N <= 16.")
public final class NQueensApp implements ExampleApp {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "-n", paramLabel = "N", description = "board size (default: ${DEFAULT-VALUE})")
    int n = 15;

    @Option(names = "--sequential-depth", paramLabel = "D",
        description = "rows from D on are counted sequentially (default: ${DEFAULT-VALUE})")
    int sequentialDepth = 4;

    public NQueensApp() {
    }

    public NQueensApp(final int n, final int sequentialDepth) {
        this.n = n;
        this.sequentialDepth = sequentialDepth;
    }

    @Override
    public String name() {
        return "nqueens";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("-n", n, 1, NQueensSequential.MAX_N);
        Options.atLeast("--sequential-depth", sequentialDepth, 0);
    }

    @Override
    public Problem<Long> prepare() {
        validate();
        final int size = n;
        final int depth = sequentialDepth;
        return new Problem<>() {
            @Override
            public Root<Long> root() {
                return new NQueens(size, depth).countAll();
            }

            @Override
            public Long solveSequential() {
                return NQueensSequential.count(size);
            }

            @Override
            public Check check(final Long answer) {
                if (!NQueensSequential.isKnown(size)) {
                    return Check.unchecked("no known count for n=" + size);
                }
                return Check.equal(answer, NQueensSequential.known(size), "the known count (OEIS A000170)");
            }

            @Override
            public String describe(final Long answer) {
                return size + "-queens: " + answer + " solutions";
            }
        };
    }
}
