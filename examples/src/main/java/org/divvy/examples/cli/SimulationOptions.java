package org.divvy.examples.cli;

import org.divvy.examples.Options;
import picocli.CommandLine.Option;

/**
 * The {@code --simulate-leaf-us} option (a picocli mixin of the apps that support it, fib, uts and knapsack):
 * each leaf job parks for that many microseconds instead of computing, so a run of 24 to 64 nodes fits
 * on a 2-core machine and measures scheduling and stealing rather than arithmetic. Every output of such
 * a run says {@value #BANNER}. (Knapsack's leaves last that time on average: each searches, then parks in
 * proportion to the search nodes it visited, so its tree stays as irregular as the real search.) The park itself
 * is {@code simulated.SimulatedLeaf}, which the kernels call, since it runs wherever a leaf job runs.
 */
public final class SimulationOptions {
    /** What the output of a simulated run says, so its times are never mistaken for real ones. */
    public static final String BANNER = "SIMULATED WORK";

    /** One minute: a leaf longer than that is a typo, not a benchmark. */
    public static final int MAX_LEAF_US = 60_000_000;

    @Option(names = "--simulate-leaf-us", paramLabel = "US",
        description = "SIMULATED WORK: each leaf job parks US microseconds instead of computing (for many "
            + "nodes on few cores); 0 = real work (default: ${DEFAULT-VALUE})")
    int leafUs;

    public SimulationOptions() {
    }

    /** Microseconds each leaf parks; 0 when the work is real. */
    public int leafUs() {
        return leafUs;
    }

    public boolean isSimulated() {
        return leafUs > 0;
    }

    /** Throws {@link IllegalArgumentException} naming the option, its value and the bound. */
    public void validate(final boolean sequential) {
        Options.inRange("--simulate-leaf-us", leafUs, 0, MAX_LEAF_US);
        if (leafUs > 0 && sequential) {
            throw new IllegalArgumentException("--simulate-leaf-us=" + leafUs
                + " applies to the Divvy version only, not with --sequential");
        }
    }

    /** The note appended to an answer line: empty for real work. */
    public static String note(final int leafUs) {
        return leafUs > 0 ? " -- " + BANNER + ": each leaf parked " + leafUs + " us instead of computing" : "";
    }
}
