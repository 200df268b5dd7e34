package org.divvy.examples.tsp;

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

/** The {@code tsp} command. */
@Command(name = "tsp", mixinStandardHelpOptions = true,
    description = "Travelling salesman by branch and bound (Held-Karp 1-tree bound), spawning the next city on "
        + "the first levels and passing the best tour length down (--mode conquer) or sharing it (--mode share); a shipped TSPLIB instance checked against its "
        + "published optimum, or a random one checked against Held-Karp dynamic programming (up to 18 cities).")
public final class TspApp implements ExampleApp {
    /**
     * The write-combining delay the shared version is meant to run with: the node default, 2 ms. Writes are few (one
     * per tour better than the replica's bound, bunched while the search starts) and a late bound is search wasted on
     * every other node, so a longer delay would buy few messages at the price of pruning. {@code perf shared-traffic}
     * measures with it and without.
     */
    public static final long RECOMMENDED_COMBINING_MS = 2;

    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--instance", paramLabel = "NAME",
        description = "a shipped TSPLIB instance: burma14, ulysses16, gr17, ulysses22, gr24, fri26, att48, berlin52 "
            + "(default: ${DEFAULT-VALUE})")
    String instance = "att48";

    @Option(names = "--random", paramLabel = "N",
        description = "solve a seeded random instance of N cities (EUC_2D in a 1000 x 1000 square) instead")
    int random;

    @Option(names = "--seed", description = "random seed of --random (default: ${DEFAULT-VALUE})")
    long seed = 42;

    @Option(names = "--small", description = "solve the small instance burma14 (seconds become milliseconds)")
    boolean small;

    @Option(names = "--spawn-depth", paramLabel = "D",
        description = "cities placed before depth D are spawned, later ones sequentially (default: ${DEFAULT-VALUE})")
    int spawnDepth = 6;

    @Option(names = "--no-first-tour",
        description = "start from no known tour instead of the 2-opt one, so the bound must be found by the search "
            + "(what passing the bound down, or sharing it, is about)")
    boolean noFirstTour;

    @Option(names = "--mode", paramLabel = "MODE", converter = Mode.Converter.class,
        description = "sequential (the plain program, as --sequential), conquer (pure divide and conquer: the best tour length passed down the tree) or "
            + "share (divide and share: the best tour length a shared object every job reads and lowers) (default: conquer)")
    void mode(final Mode chosen) {
        common.chooseMode(chosen);
    }

    /** The version this run solves with. */
    public Mode mode() {
        return common.mode();
    }

    public TspApp() {
    }

    /** A random instance. */
    public TspApp(final int cities, final long seed, final int spawnDepth) {
        this.random = cities;
        this.seed = seed;
        this.spawnDepth = spawnDepth;
    }

    /** A shipped instance. */
    public TspApp(final String instance, final int spawnDepth) {
        this.instance = instance;
        this.spawnDepth = spawnDepth;
    }

    /** A random instance, solved in {@code mode}. */
    public TspApp(final int cities, final long seed, final int spawnDepth, final Mode mode) {
        this(cities, seed, spawnDepth);
        mode(mode);
    }

    @Override
    public String name() {
        return "tsp";
    }

    @Override
    public CommonOptions common() {
        return common;
    }

    @Override
    public void validate() {
        if (random != 0) {
            Options.inRange("--random", random, 3, TspInstance.MAX_CITIES);
        } else if (!Tsplib.KNOWN_OPTIMA.containsKey(small ? "burma14" : instance)) {
            throw new IllegalArgumentException("--instance=" + instance + " is not shipped; choose one of "
                + String.join(", ", new java.util.TreeSet<>(Tsplib.KNOWN_OPTIMA.keySet())));
        }
        Options.atLeast("--spawn-depth", spawnDepth, 0);
    }

    /** The first best tour length: the heuristic tour's, or none with --no-first-tour. */
    private int firstBound(final TspInstance cities) {
        return noFirstTour ? TspSequential.NO_TOUR : cities.tourLength(TspSequential.heuristicTour(cities));
    }

    @Override
    public Problem<Integer> prepare() {
        validate();
        final TspInstance cities = random != 0 ? TspInstance.random(random, seed)
            : Tsplib.load(small ? "burma14" : instance);
        final int depth = spawnDepth;
        final boolean share = mode() == Mode.SHARE;
        return new Problem<>() {
            @Override
            public Root<Integer> root() {
                return share ? SharingTsp.solve(cities, depth, firstBound(cities))
                    : Tsp.solve(cities, depth, firstBound(cities));
            }

            @Override
            public Integer solveSequential() {
                return TspSequential.solve(cities, firstBound(cities));
            }

            @Override
            public Check check(final Integer answer) {
                final Integer optimum = Tsplib.KNOWN_OPTIMA.get(cities.name());
                if (optimum != null) {
                    return Check.equal(answer, optimum, "the published optimum of " + cities.name());
                }
                if (cities.size() <= TspSequential.HELD_KARP_MAX_CITIES) {
                    return Check.equal(answer, TspSequential.heldKarp(cities), "Held-Karp dynamic programming");
                }
                return Check.unchecked("no published optimum, and " + cities.size() + " cities are beyond Held-Karp's "
                    + TspSequential.HELD_KARP_MAX_CITIES);
            }

            @Override
            public String describe(final Integer answer) {
                return "shortest tour " + answer + " through the " + cities.size() + " cities of " + cities.name();
            }
        };
    }
}
