package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.examples.Options;
import org.divvy.membership.StandaloneRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code divvy registry}: a registry process that runs no jobs. Nodes (and node 0 of
 * {@code divvy run --join}) join it at the address it prints; it runs until it is stopped (Ctrl-C,
 * SIGTERM) or for {@code --duration-seconds}. Where it listens and the heartbeat timing and failure
 * detection it shares with the nodes are node settings ({@code --bind}, {@code --port},
 * {@code --heartbeat-interval-ms}, {@code --acceptable-heartbeat-pause-ms}, {@code --failure-phi-threshold},
 * {@code --term-length-bytes}; see {@link NodeSettingOptions}).
 *
 * <p>It keeps the root of every run submitted to it and chooses its master; when a run's submitter died, the
 * master's value has nobody to go to, so the registry prints how the run ended ({@code divvy registry: run 3.1 of
 * ... computed ...}) and the master ends the computation.
 */
@Command(name = "registry", mixinStandardHelpOptions = true,
    description = "Runs a standalone registry that nodes join; prints its address.",
    modelTransformer = NodeSettingOptions.AddOptions.class)
public final class RegistryCommand implements CliCommand, NodeSettingOptions.Owner {
    /** The registry's agent has little to do; sleeping 1 ms when idle costs nothing and adds at most 1 ms. */
    private static final long IDLE_SLEEP_MS = 1;

    /** The node settings a registry uses: its endpoint, and the heartbeat timing and failure detection the nodes share. */
    private final NodeSettingOptions nodeSettings = new NodeSettingOptions(NodeSettingOptions.only(NodeSettings.BIND,
        NodeSettings.PORT, NodeSettings.HEARTBEAT_INTERVAL_MS, NodeSettings.ACCEPTABLE_HEARTBEAT_PAUSE_MS,
        NodeSettings.FAILURE_PHI_THRESHOLD, NodeSettings.TERM_LENGTH_BYTES));
    /** The registry's endpoint and timing as a node's configuration, built by {@link #validate()}. */
    private NodeConfig config;

    @Option(names = "--duration-seconds", paramLabel = "S",
        description = "stop after S seconds; 0 = run until stopped (default: ${DEFAULT-VALUE})")
    int durationSeconds;

    public RegistryCommand() {
    }

    @Override
    public NodeSettingOptions nodeSettings() {
        return nodeSettings;
    }

    @Override
    public void validate() {
        Options.atLeast("--duration-seconds", durationSeconds, 0);
        config = nodeSettings.build(NodeConfig.builder().networked(true));
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        final StandaloneRegistry registry;
        try {
            registry = StandaloneRegistry.launch(config,
                SystemNanoClock.INSTANCE,
                t -> err.println("divvy registry: " + t));
            registry.rootKeeper().onUnclaimedResult(line -> out.println("divvy registry: " + line));
        } catch (final DivvyException | IllegalStateException e) {
            err.println("divvy registry: cannot listen at " + config.bind() + ":" + config.port() + ": " + e.getMessage());
            return 1;
        }
        final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(IDLE_SLEEP_MS),
            t -> err.println("divvy registry: " + t), null, registry);
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread hook = new Thread(() -> {
            runner.close();
            stopped.countDown();
        }, "divvy-registry-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        final String endpoint = registry.endpoint();
        AgentRunner.startOnThread(runner);
        out.println("divvy registry listening at " + endpoint);
        out.println("join it with: divvy node --join " + endpoint + " --site NAME   or: divvy run --join " + endpoint
            + " ...");
        try {
            if (durationSeconds > 0) {
                stopped.await(durationSeconds, TimeUnit.SECONDS);
            } else {
                stopped.await();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (final IllegalStateException e) {
            // Shutting down already: the hook closes the runner.
            return 0;
        }
        runner.close();
        out.println("divvy registry stopped");
        return 0;
    }
}
