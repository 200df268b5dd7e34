package org.divvy.examples.locusroute;

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

/** The {@code locusroute} command. */
@Command(name = "locusroute", mixinStandardHelpOptions = true,
    description = "LocusRoute-style wire routing on a grid cost array: two-bend routes of least cost, rip-up and "
        + "reroute iterations; groups of wires routed by spawned jobs, against the cost array of the iteration's "
        + "start (--mode conquer) or against a shared cost array every job writes its wires to (--mode share; "
        + "combine its writes: divvy run --shared-write-combining-ms 100); quality checked against the sequential "
        + "router.")
public final class LocusRouteApp implements ExampleApp {
    /**
     * How much worse than the sequential router's the congestion may be: 10%. Jobs route their group against the
     * cost array of the iteration's start, blind to the other groups' new routes, so the first iteration piles
     * wires onto the same cheap cells (consecutive regions route in separate phases, so this happens only where
     * wires reach past the neighbouring region). Measured: 0.3-0.8% worse on the default and the --small circuit
     * with 3 iterations; 5.9% at worst, with 40,000 wires in groups of 250 (see README, Examples).
     */
    public static final double CONGESTION_BOUND = 0.10;
    /** How many more wires than the sequential router's may share the busiest cell. */
    public static final int OCCUPANCY_SLACK = 2;
    /**
     * The write-combining delay the shared version is meant to run with ({@code --shared-write-combining-ms 100}
     * on every node, as Satin's LocusRoute used): a job writes every wire it moves, thousands a second, and a
     * stale cost array only costs quality, so 100 ms of staleness buys few messages. {@code perf shared-traffic}
     * measures with it and without.
     */
    public static final long RECOMMENDED_COMBINING_MS = 100;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--width", paramLabel = "CELLS", description = "grid width (default: ${DEFAULT-VALUE})")
    int width = 400;

    @Option(names = "--height", paramLabel = "CELLS", description = "grid height (default: ${DEFAULT-VALUE})")
    int height = 400;

    @Option(names = "--wires", paramLabel = "N", description = "number of two-pin wires (default: ${DEFAULT-VALUE})")
    int wires = 40_000;

    @Option(names = "--span", paramLabel = "CELLS",
        description = "a wire's second pin is within this many cells of its first, each way (default: ${DEFAULT-VALUE})")
    int span = 60;

    @Option(names = "--iterations", paramLabel = "I",
        description = "routing passes: the first routes, later ones rip up and reroute (default: ${DEFAULT-VALUE})")
    int iterations = 3;

    @Option(names = "--leaf-wires", paramLabel = "W",
        description = "groups of at most W wires are routed by one job (default: ${DEFAULT-VALUE})")
    int leafWires = 2000;

    @Option(names = "--mode", paramLabel = "MODE", converter = Mode.Converter.class,
        description = "sequential (one router), conquer (groups routed in two phases against the cost array of the "
            + "phase's start) or share (groups route against a shared cost array and write each wire they move; "
            + "run the nodes with --shared-write-combining-ms " + RECOMMENDED_COMBINING_MS + ") (default: conquer)")
    void mode(final Mode chosen) {
        common.chooseMode(chosen);
    }

    @Option(names = "--seed", description = "random seed of the circuit (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--small", description = "a 64 x 64 grid with 600 wires of span 12")
    boolean small;

    public LocusRouteApp() {
    }

    public LocusRouteApp(final int size, final int wires, final int iterations, final int leafWires) {
        this.width = size;
        this.height = size;
        this.wires = wires;
        this.span = Math.max(1, size / 6);
        this.iterations = iterations;
        this.leafWires = leafWires;
    }

    /** A random circuit on a {@code size x size} grid, routed in {@code mode}. */
    public LocusRouteApp(final int size, final int wires, final int iterations, final int leafWires, final Mode mode) {
        this(size, wires, iterations, leafWires);
        mode(mode);
    }

    /** The version this run solves with. */
    public Mode mode() {
        return common.mode();
    }

    @Override
    public String name() {
        return "locusroute";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        Options.inRange("--width", width, 1, 10_000);
        Options.inRange("--height", height, 1, 10_000);
        Options.inRange("--wires", wires, 1, 1 << 24);
        Options.atLeast("--span", span, 0);
        Options.atLeast("--iterations", iterations, 1);
        Options.atLeast("--leaf-wires", leafWires, 1);
    }

    @Override
    public Problem<Routing> prepare() {
        validate();
        final Circuit circuit = small ? Circuit.random(64, 64, 600, 12, seed)
            : Circuit.random(width, height, wires, span, seed);
        final int passes = iterations;
        final int leaf = leafWires;
        final boolean share = mode() == Mode.SHARE;
        return new Problem<>() {
            @Override
            public Root<Routing> root() {
                return share ? new LocusRouteShare(circuit, leaf).routeAll(passes)
                    : new LocusRoute(circuit, leaf).routeAll(passes);
            }

            @Override
            public Routing solveSequential() {
                return LocusRouteSequential.route(circuit, passes);
            }

            @Override
            public Check check(final Routing answer) {
                return checkAgainst(circuit, answer, LocusRouteSequential.route(circuit, passes));
            }

            @Override
            public String describe(final Routing answer) {
                return circuit.wires() + " wires on " + circuit.width() + " x " + circuit.height() + ", " + passes
                    + " iterations: congestion " + answer.congestion() + ", busiest cell " + answer.maxOccupancy()
                    + " wires, " + answer.wireCells() + " wire cells";
            }
        };
    }

    /**
     * PASS when every wire has a route that connects its pins and the quality is within the bounds of the
     * sequential router's ({@link #CONGESTION_BOUND}, {@link #OCCUPANCY_SLACK}).
     */
    public static Check checkAgainst(final Circuit circuit, final Routing answer, final Routing sequential) {
        if (answer.routes().length != circuit.wires()) {
            return Check.fail(answer.routes().length + " routes for " + circuit.wires() + " wires");
        }
        final Routing recomputed = Routing.of(circuit, answer.routes());
        if (recomputed.congestion() != answer.congestion() || recomputed.maxOccupancy() != answer.maxOccupancy()) {
            return Check.fail("the reported quality is not the routes' own");
        }
        for (int w = 0; w < circuit.wires(); w++) {
            if (!LocusRouteSequential.isValidRoute(circuit, w, answer.routes()[w])) {
                return Check.fail("wire " + w + " has no valid route (" + answer.routes()[w] + ")");
            }
        }
        final double ratio = (double)answer.congestion() / sequential.congestion();
        final String detail = String.format("congestion %.4f x the sequential router's (%d), busiest cell %d vs %d",
            ratio, sequential.congestion(), answer.maxOccupancy(), sequential.maxOccupancy());
        return ratio <= 1 + CONGESTION_BOUND && answer.maxOccupancy() <= sequential.maxOccupancy() + OCCUPANCY_SLACK
            ? Check.pass(detail + "; within " + (int)(100 * CONGESTION_BOUND) + "% and +" + OCCUPANCY_SLACK)
            : Check.fail(detail + "; allowed " + (int)(100 * CONGESTION_BOUND) + "% and +" + OCCUPANCY_SLACK);
    }
}
