package org.divvy.perf;

import org.divvy.ClusterSecret;
import org.divvy.NodeConfig;

/**
 * The cluster secret of a benchmark's nodes, as {@code divvy run} does it: the configured one if there is
 * one, else one made for this benchmark, handed to its child processes in their environment (never on their
 * command line).
 */
public final class BenchmarkSecret {
    private static final ClusterSecret GENERATED = ClusterSecret.generate();

    private BenchmarkSecret() {
    }

    /** {@code config} with its configured secret, or this process's generated one. */
    public static NodeConfig withSecret(final NodeConfig config) {
        return config.clusterSecret() != null ? config : config.toBuilder().secret(GENERATED).build();
    }

    /** Gives a child process the secret {@link #withSecret} chose for {@code config}. */
    public static ProcessBuilder export(final NodeConfig config, final ProcessBuilder child) {
        if (config.secretFile() == null) {
            child.environment().put(ClusterSecret.ENVIRONMENT_VARIABLE, withSecret(config).clusterSecret().text());
        }
        return child;
    }
}
