package org.divvy.examples.cli;

import org.divvy.NetworkConfig;
import org.divvy.StealPolicy;

/** Turns the command-line network options into the runtime's {@link NetworkConfig}. */
final class NetworkConfigs {
    private NetworkConfigs() {
    }

    /**
     * The configuration of a node in {@code site} that joins {@code join} ({@code null}: it hosts the
     * registry), listening on {@code port}.
     */
    static NetworkConfig of(final NetworkOptions options, final String join, final String site, final int port) {
        return NetworkConfig.builder()
            .bindHost(options.bind())
            .port(port)
            .join(join)
            .site(site)
            .stealPolicy(StealPolicy.valueOf(options.policyName()))
            .joinTimeoutMs(options.joinTimeoutMs())
            .heartbeatTimeoutMs(options.heartbeatTimeoutMs())
            .build();
    }
}
