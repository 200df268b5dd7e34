package org.divvy.examples.cli;

import java.io.PrintStream;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code divvy node --join HOST:PORT --site NAME}: a node that joins a running computation (the
 * registry of a {@code divvy run} master, or a {@code divvy registry}), works until the master ends the
 * computation, and exits with the master's exit code (1 if it cannot join or loses the master).
 */
@Command(name = "node", mixinStandardHelpOptions = true,
    description = "Starts a node that joins a running computation and exits when the master ends it.")
public final class NodeCommand implements CliCommand {
    @Option(names = "--join", required = true, paramLabel = "HOST:PORT",
        description = "address of the master (printed by divvy run) or of a divvy registry")
    String join;

    @Option(names = "--site", paramLabel = "NAME",
        description = "site (cluster) of this node (default: ${DEFAULT-VALUE})")
    String site = SiteLayout.DEFAULT_SITE;

    @Option(names = "--workers", paramLabel = "W",
        description = "worker threads; 0 = one per core (default: ${DEFAULT-VALUE})")
    int workers;

    @Mixin
    NetworkOptions network = new NetworkOptions();

    public NodeCommand() {
    }

    public String join() {
        return join;
    }

    public String site() {
        return site;
    }

    /** The worker count, resolving 0 to the number of available processors. */
    public int workers() {
        return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
    }

    public NetworkOptions network() {
        return network;
    }

    @Override
    public void validate() {
        HostPort.parse("--join", join);
        if (!SiteLayout.isValidName(site)) {
            throw new IllegalArgumentException("--site=" + site + ", must be 1 to 64 letters, digits, '-', '_' or '.'");
        }
        if (workers < 0) {
            throw new IllegalArgumentException("--workers=" + workers + ", must be >= 0");
        }
        network.validate();
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        return new WorkerNode(this).execute(out, err);
    }
}
