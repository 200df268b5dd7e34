package org.divvy.examples.cli;

import org.divvy.NodeConfig;
import org.divvy.StealPolicy;

/** Turns the command-line network options into the runtime's {@link NodeConfig}. */
final class NetworkConfigs {
    private NetworkConfigs() {
    }

    /**
     * The configuration of a node in {@code site} that joins {@code join} ({@code null}: it hosts the
     * registry), listening on {@code port}.
     */
    static NodeConfig.Builder of(final NetworkOptions options, final String join, final String site, final int port) {
        return NodeConfig.builder()
            .networked(true)
            .bind(options.bind())
            .port(port)
            .join(join)
            .site(site)
            .policy(StealPolicy.valueOf(options.policyName()))
            .joinTimeoutMs(options.joinTimeoutMs())
            .heartbeatTimeoutMs(options.heartbeatTimeoutMs());
    }
}
