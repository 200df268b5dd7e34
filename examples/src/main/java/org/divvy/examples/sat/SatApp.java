package org.divvy.examples.sat;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Mode;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code sat} command. */
@Command(name = "sat", mixinStandardHelpOptions = true,
    description = "SAT by cube and conquer with a CDCL solver (watched literals, 1UIP, VSIDS, restarts, clause "
        + "deletion): cubes split on variables, the first model found stops the rest (--mode conquer: abort; "
        + "--mode share: a shared solution flag, with learned clauses shared); a shipped SATLIB instance or "
        + "a random 3-SAT one; a model is checked against every clause, unsatisfiability against SATLIB's label or "
        + "the sequential solver.")
public final class SatApp implements ExampleApp {
    /**
     * The write-combining delay the shared version is meant to run with ({@code --shared-write-combining-ms 20} on
     * every node): jobs write every short clause they learn, thousands a second, and a clause or the solution flag
     * 20 ms late costs a few conflicts, while the messages drop by the combining ratio. {@code perf shared-traffic}
     * measures with it and without.
     */
    public static final long RECOMMENDED_COMBINING_MS = 20;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--instance", paramLabel = "NAME",
        description = "a shipped instance: uf20-01, uf50-01, uuf50-01, uf100-01, uuf100-01, uf150-016, uuf150-020, "
            + "uf175-012, uuf175-040 (default: ${DEFAULT-VALUE})")
    String instance = "uuf175-040";

    @Option(names = "--random", paramLabel = "V",
        description = "solve a seeded random 3-SAT formula of V variables and round(4.26 V) clauses instead")
    int random;

    @Option(names = "--seed", description = "random seed of --random (default: ${DEFAULT-VALUE})")
    long seed = 1;

    @Option(names = "--small", description = "solve the small instance uuf50-01")
    boolean small;

    @Option(names = "--mode", paramLabel = "MODE", converter = Mode.Converter.class,
        description = "sequential (one CDCL solver), conquer (cubes, learned clauses passed down the tree, the first "
            + "model aborts the rest) or share (cubes sharing the solution flag, the global conflict count and learned "
            + "clauses of up to 10 literals through a shared object; run the nodes with --shared-write-combining-ms "
            + RECOMMENDED_COMBINING_MS + ") (default: conquer)")
    void mode(final Mode chosen) {
        common.chooseMode(chosen);
    }

    @Option(names = "--cube-depth", paramLabel = "D",
        description = "the first D levels split at once, giving 2^D cubes (default: ${DEFAULT-VALUE})")
    int cubeDepth = 4;

    @Option(names = "--leaf-conflicts", paramLabel = "C",
        description = "conflicts a cube's solver may spend before it splits again, doubling below "
            + "(default: ${DEFAULT-VALUE})")
    long leafConflicts = 2000;

    public SatApp() {
    }

    /** A random 3-SAT instance. */
    public SatApp(final int variables, final long seed, final int cubeDepth, final long leafConflicts) {
        this.random = variables;
        this.seed = seed;
        this.cubeDepth = cubeDepth;
        this.leafConflicts = leafConflicts;
    }

    /** A shipped instance. */
    public SatApp(final String instance, final int cubeDepth, final long leafConflicts) {
        this(instance, cubeDepth, leafConflicts, Mode.CONQUER);
    }

    /** A shipped instance, solved in {@code mode}. */
    public SatApp(final String instance, final int cubeDepth, final long leafConflicts, final Mode mode) {
        this.instance = instance;
        this.cubeDepth = cubeDepth;
        this.leafConflicts = leafConflicts;
        mode(mode);
    }

    /** The version this run solves with. */
    public Mode mode() {
        return common.mode();
    }

    @Override
    public String name() {
        return "sat";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        if (random != 0) {
            Options.inRange("--random", random, 3, 100_000);
        } else if (!SatInstances.SHIPPED.contains(small ? "uuf50-01" : instance)) {
            throw new IllegalArgumentException("--instance=" + instance + " is not shipped; choose one of "
                + String.join(", ", SatInstances.SHIPPED));
        }
        Options.inRange("--cube-depth", cubeDepth, 0, 30);
        Options.atLeast("--leaf-conflicts", leafConflicts, 1);
    }

    @Override
    public Problem<SatAnswer> prepare() {
        validate();
        final Cnf cnf = random != 0 ? Cnf.random3Sat(random, (int)Math.round(4.26 * random), seed)
            : Cnf.load(small ? "uuf50-01" : instance);
        final int depth = cubeDepth;
        final long conflicts = leafConflicts;
        final boolean share = mode() == Mode.SHARE;
        return new Problem<>() {
            @Override
            public Root<SatAnswer> root() {
                return share ? new SatShare(cnf, depth, conflicts).solveAll() : new Sat(cnf, depth, conflicts).solveAll();
            }

            @Override
            public SatAnswer solveSequential() {
                return SatSequential.solve(cnf);
            }

            @Override
            public Check check(final SatAnswer answer) {
                final Boolean published = SatInstances.publishedSatisfiable(cnf.name());
                if (answer.satisfiable()) {
                    return cnf.satisfiedBy(answer.model())
                        ? Check.pass("the model satisfies all " + cnf.clauses() + " clauses")
                        : Check.fail("the model leaves a clause false");
                }
                if (published != null) {
                    return published ? Check.fail("SATLIB's " + cnf.name() + " is satisfiable, the answer says not")
                        : Check.pass("SATLIB labels " + cnf.name() + " unsatisfiable (uuf)");
                }
                return SatSequential.solve(cnf).satisfiable()
                    ? Check.fail("the sequential solver finds a model, the answer says unsatisfiable")
                    : Check.pass("the sequential solver finds no model either");
            }

            @Override
            public String describe(final SatAnswer answer) {
                return (answer.satisfiable() ? "satisfiable" : "unsatisfiable") + ": " + cnf.name() + ", "
                    + cnf.variables() + " variables, " + cnf.clauses() + " clauses";
            }
        };
    }
}
