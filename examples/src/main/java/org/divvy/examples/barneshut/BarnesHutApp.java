package org.divvy.examples.barneshut;

import org.divvy.Root;
import org.divvy.examples.Check;
import org.divvy.examples.CommonOptions;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.Problem;
import org.divvy.examples.Mode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code barneshut} command. */
@Command(name = "barneshut", mixinStandardHelpOptions = true,
    description = "Barnes-Hut N-body simulation of a seeded Plummer sphere (octree, opening angle theta, leapfrog "
        + "steps), spawning the force computation over ranges of bodies, each job carrying the tree (--mode conquer) "
        + "or reading a shared replica of the positions (--mode share); positions checked against the sequential run.")
public final class BarnesHutApp implements ExampleApp {
    /**
     * The largest position difference allowed between the Divvy and the sequential run: none, in both modes. Both
     * do the same floating-point operations in the same order on the same tree (a body's force does not depend on
     * which job computes it; in share mode every replica builds its tree from the same positions, and a job runs
     * only on its own iteration's, which its guard checks), and Java 17's floating point is strict IEEE 754 everywhere (JEP 306; no fused multiply-add
     * unless asked for), so any difference is a bug, not rounding.
     */
    public static final double TOLERANCE = 0.0;

    /**
     * The write-combining delay the shared version is meant to run with: the node default, 2 ms. There is one write
     * per step (all positions), so nothing to combine, and every millisecond it waits delays the step's remote force
     * jobs (their guard waits for it); 2 ms is lost in a step of hundreds. {@code perf shared-traffic} measures with
     * it and without.
     */
    public static final long RECOMMENDED_COMBINING_MS = 2;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--bodies", paramLabel = "N", description = "number of bodies (default: ${DEFAULT-VALUE})")
    int bodies = 20_000;

    @Option(names = "--steps", paramLabel = "S", description = "time steps (default: ${DEFAULT-VALUE})")
    int steps = 10;

    @Option(names = "--dt", description = "time step in N-body units (default: ${DEFAULT-VALUE})")
    double dt = 0.01;

    @Option(names = "--theta", description = "opening angle: a cube of side s at distance d counts as one mass when "
        + "s/d < theta; 0 = exact sum (default: ${DEFAULT-VALUE})")
    double theta = 0.5;

    @Option(names = "--seed", description = "random seed of the Plummer sphere (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--leaf-bodies", paramLabel = "B",
        description = "force jobs of at most B bodies run without splitting (default: ${DEFAULT-VALUE})")
    int leafBodies = 1000;

    @Option(names = "--small", description = "2,000 bodies and 3 steps")
    boolean small;

    @Option(names = "--mode", paramLabel = "MODE", converter = Mode.Converter.class,
        description = "sequential (the plain program, as --sequential), conquer (pure divide and conquer: every force job carries the tree) or "
            + "share (divide and share: the positions a shared object written once per iteration, force jobs guarded by the iteration number) (default: conquer)")
    void mode(final Mode chosen) {
        common.chooseMode(chosen);
    }

    /** The version this run solves with. */
    public Mode mode() {
        return common.mode();
    }

    public BarnesHutApp() {
    }

    public BarnesHutApp(final int bodies, final int steps, final int leafBodies) {
        this.bodies = bodies;
        this.steps = steps;
        this.leafBodies = leafBodies;
    }

    /** Solved in {@code mode}. */
    public BarnesHutApp(final int bodies, final int steps, final int leafBodies, final Mode mode) {
        this(bodies, steps, leafBodies);
        mode(mode);
    }

    @Override
    public String name() {
        return "barneshut";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--bodies", bodies, 2, 10_000_000);
        Options.atLeast("--steps", steps, 0);
        Options.inRange("--dt", dt, 1e-9, 1.0);
        Options.inRange("--theta", theta, 0.0, 2.0);
        Options.atLeast("--leaf-bodies", leafBodies, 1);
    }

    @Override
    public Problem<Bodies> prepare() {
        validate();
        final int n = small ? 2000 : bodies;
        final int stepCount = small ? 3 : steps;
        final Bodies initial = Bodies.plummer(n, seed);
        final double step = dt;
        final double angle = theta;
        final int leaf = leafBodies;
        final boolean share = mode() == Mode.SHARE;
        return new Problem<>() {
            @Override
            public Root<Bodies> root() {
                return share ? new SharingBarnesHut(angle, step, leaf).simulateAll(initial, stepCount)
                    : new BarnesHut(angle, step, leaf).simulateAll(initial, stepCount);
            }

            @Override
            public Bodies solveSequential() {
                return BarnesHutSequential.simulate(initial, stepCount, step, angle);
            }

            @Override
            public Check check(final Bodies answer) {
                final double deviation = BarnesHutSequential.maxDeviation(answer,
                    BarnesHutSequential.simulate(initial, stepCount, step, angle));
                return deviation <= TOLERANCE
                    ? Check.pass("every position equals the sequential run's (largest difference " + deviation + ")")
                    : Check.fail("a position differs from the sequential run's by " + deviation + " (allowed: "
                        + TOLERANCE + ")");
            }

            @Override
            public String describe(final Bodies answer) {
                double checksum = 0;
                for (int i = 0; i < answer.size(); i++) {
                    checksum += answer.x()[i] + 2 * answer.y()[i] + 3 * answer.z()[i];
                }
                return answer.size() + " bodies after " + stepCount + " steps of " + step + ", theta " + angle
                    + ", position checksum " + String.format("%.15e", checksum);
            }
        };
    }
}
