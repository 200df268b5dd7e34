package org.divvy.examples.fib;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import org.divvy.examples.cli.SimulationOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code fib} command: doubly recursive Fibonacci, the spawn-overhead benchmark. */
@Command(name = "fib", mixinStandardHelpOptions = true,
    description = "Fibonacci by double recursion, spawning both calls above a threshold; "
        + "checked against the iterative value.")
public final class FibApp implements ExampleApp {
    /** fib(92) is the largest Fibonacci number that fits a long. */
    static final int MAX_N = 92;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    SimulationOptions simulation = new SimulationOptions();

    @Option(names = "-n", paramLabel = "N", description = "compute fib(N) (default: ${DEFAULT-VALUE})")
    int n = 42;

    @Option(names = "--threshold", paramLabel = "T",
        description = "below T, calls run sequentially; 0 or 1 spawns every call (default: ${DEFAULT-VALUE})")
    int threshold = 20;

    public FibApp() {
    }

    public FibApp(final int n, final int threshold) {
        this.n = n;
        this.threshold = threshold;
    }

    @Override
    public String name() {
        return "fib";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("-n", n, 0, MAX_N);
        Options.atLeast("--threshold", threshold, 0);
        simulation.validate(common.sequential());
    }

    @Override
    public Problem<Long> prepare() {
        validate();
        final int size = n;
        final int cutoff = threshold;
        final int leafUs = simulation.leafUs();
        return new Problem<>() {
            @Override
            public Root<Long> root() {
                return Root.of(() -> new Fib(cutoff, leafUs).spawnFib(size));
            }

            @Override
            public Long solveSequential() {
                return FibSequential.fib(size);
            }

            @Override
            public Check check(final Long answer) {
                return Check.equal(answer, FibSequential.fibIterative(size), "fib(" + size + ") by iteration");
            }

            @Override
            public String describe(final Long answer) {
                return "fib(" + size + ") = " + answer + " (" + FibSequential.calls(size) + " calls, threshold "
                    + cutoff + ")" + SimulationOptions.note(leafUs);
            }
        };
    }
}
