package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.divvy.DivvyException;
import org.divvy.examples.Options;
import org.divvy.membership.MembershipSettings;
import org.divvy.membership.StandaloneRegistry;
import org.divvy.transport.TransportSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code divvy registry}: a registry process that runs no jobs. Nodes (and the master, with
 * {@code divvy run --join}) join it at the address it prints; it runs until it is stopped (Ctrl-C,
 * SIGTERM) or for {@code --duration-seconds}.
 */
@Command(name = "registry", mixinStandardHelpOptions = true,
    description = "Runs a standalone registry that nodes join; prints its address.")
public final class RegistryCommand implements CliCommand {
    /** The registry's agent has little to do; sleeping 1 ms when idle costs nothing and adds at most 1 ms. */
    private static final long IDLE_SLEEP_MS = 1;

    @Option(names = "--bind", paramLabel = "HOST",
        description = "host or IP address nodes reach the registry at (default: ${DEFAULT-VALUE})")
    String bind = NetworkOptions.DEFAULT_BIND;

    @Option(names = "--port", paramLabel = "P", description = "UDP port; 0 = any free port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "MS",
        description = "silence after which a node is declared dead (default: ${DEFAULT-VALUE})")
    int heartbeatTimeoutMs = 2_000;

    @Option(names = "--duration-seconds", paramLabel = "S",
        description = "stop after S seconds; 0 = run until stopped (default: ${DEFAULT-VALUE})")
    int durationSeconds;

    public RegistryCommand() {
    }

    @Override
    public void validate() {
        if (bind == null || bind.isEmpty() || bind.indexOf(':') >= 0) {
            throw new IllegalArgumentException("--bind=" + bind
                + ", must be a host name or IPv4 address without a port");
        }
        Options.inRange("--port", port, 0, 65535);
        Options.inRange("--heartbeat-timeout-ms", heartbeatTimeoutMs, 250, 600_000);
        Options.atLeast("--duration-seconds", durationSeconds, 0);
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        final StandaloneRegistry registry;
        try {
            registry = StandaloneRegistry.launch(
                TransportSettings.builder().host(bind).port(port).build(),
                MembershipSettings.builder()
                    .heartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(heartbeatTimeoutMs))
                    .build(),
                SystemNanoClock.INSTANCE,
                t -> err.println("divvy registry: " + t));
        } catch (final DivvyException | IllegalStateException e) {
            err.println("divvy registry: cannot listen at " + bind + ":" + port + ": " + e.getMessage());
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
