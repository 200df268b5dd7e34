package org.divvy.examples.cli;

import java.util.List;
import java.util.Locale;

import org.divvy.examples.Options;
import picocli.CommandLine.Option;

/** The network options of {@code divvy run} and {@code divvy node} (a picocli mixin). */
public final class NetworkOptions {
    /** Loopback: the local multi-process runs need nothing else; LAN runs name the machine's address. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    @Option(names = "--bind", paramLabel = "HOST",
        description = "host or IP address other nodes reach this node at (default: ${DEFAULT-VALUE})")
    String bind = DEFAULT_BIND;

    @Option(names = "--port", paramLabel = "P",
        description = "UDP port of this node; 0 = any free port (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--policy", paramLabel = "rs|crs",
        description = "steal policy: rs = random stealing, crs = cluster-aware random stealing "
            + "(default: ${DEFAULT-VALUE})")
    String policy = "crs";

    @Option(names = "--join-timeout-ms", paramLabel = "MS",
        description = "how long a joining node retries before it gives up (default: ${DEFAULT-VALUE})")
    int joinTimeoutMs = 10_000;

    @Option(names = "--heartbeat-timeout-ms", paramLabel = "MS",
        description = "silence after which a node is declared dead (default: ${DEFAULT-VALUE})")
    int heartbeatTimeoutMs = 2_000;

    public NetworkOptions() {
    }

    public String bind() {
        return bind;
    }

    public int port() {
        return port;
    }

    /** The policy as the runtime's enum constant name, {@code "RS"} or {@code "CRS"}. */
    public String policyName() {
        return policy.toUpperCase(Locale.ROOT);
    }

    public int joinTimeoutMs() {
        return joinTimeoutMs;
    }

    public int heartbeatTimeoutMs() {
        return heartbeatTimeoutMs;
    }

    /** Throws {@link IllegalArgumentException} naming the option, its value and the bound. */
    public void validate() {
        if (bind == null || bind.isEmpty() || bind.indexOf(':') >= 0) {
            throw new IllegalArgumentException("--bind=" + bind
                + ", must be a host name or IPv4 address without a port");
        }
        Options.inRange("--port", port, 0, 65535);
        if (!policy.equalsIgnoreCase("rs") && !policy.equalsIgnoreCase("crs")) {
            throw new IllegalArgumentException("--policy=" + policy + ", must be rs or crs");
        }
        Options.inRange("--join-timeout-ms", joinTimeoutMs, 1, 3_600_000);
        Options.inRange("--heartbeat-timeout-ms", heartbeatTimeoutMs, 250, 600_000);
    }

    /** The same options as flags, for a child node's command line (port left out: children pick their own). */
    public List<String> childArgs() {
        return List.of("--bind", bind, "--policy", policy.toLowerCase(Locale.ROOT),
            "--join-timeout-ms", String.valueOf(joinTimeoutMs),
            "--heartbeat-timeout-ms", String.valueOf(heartbeatTimeoutMs));
    }
}
