package org.divvy.perf.lanwan;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.divvy.perf.wan.WanLinkConfig;
import org.divvy.perf.wan.WanLinkSpec;
import org.divvy.perf.wan.WanRelay;

/**
 * Sites of nodes on one machine: node {@code i} listens on {@code 127.0.0.1:(basePort + i)} and belongs to
 * site {@code i / nodesPerSite}. Nodes of one site talk directly; every ordered pair of nodes on different
 * sites gets its own relay link (one per pair, because the relay sends replies such as Aeron status
 * messages back to the last client of the link), delayed {@code oneWayDelayMs} each way. Public: the sharing
 * package's write-latency measurement builds its sites the same way.
 */
public final class WanTopology {
    public static final String HOST = "127.0.0.1";

    private final int sites;
    private final int nodesPerSite;
    private final int basePort;

    public WanTopology(final int sites, final int nodesPerSite, final int basePort) {
        if (sites < 1 || nodesPerSite < 1) {
            throw new IllegalArgumentException("sites=" + sites + ", nodesPerSite=" + nodesPerSite + ", both must be >= 1");
        }
        if (basePort < 1024 || basePort + sites * nodesPerSite > 65535) {
            throw new IllegalArgumentException("basePort=" + basePort + ", must be in [1024, " + (65535 - sites * nodesPerSite) + "]");
        }
        this.sites = sites;
        this.nodesPerSite = nodesPerSite;
        this.basePort = basePort;
    }

    public int nodes() {
        return sites * nodesPerSite;
    }

    public int sites() {
        return sites;
    }

    public int nodesPerSite() {
        return nodesPerSite;
    }

    public int port(final int node) {
        return basePort + node;
    }

    public String endpoint(final int node) {
        return HOST + ":" + port(node);
    }

    public int siteOf(final int node) {
        return node / nodesPerSite;
    }

    public String siteName(final int node) {
        return String.valueOf((char)('A' + siteOf(node)));
    }

    private static String linkName(final int from, final int to) {
        return from + "->" + to;
    }

    /** Starts a relay with one link per ordered pair of nodes on different sites. */
    public WanRelay startRelay(final long oneWayDelayMs) {
        final WanLinkConfig config = WanLinkConfig.builder().oneWayDelay(oneWayDelayMs, TimeUnit.MILLISECONDS).build();
        final List<WanLinkSpec> specs = new ArrayList<>();
        for (int from = 0; from < nodes(); from++) {
            for (int to = 0; to < nodes(); to++) {
                if (siteOf(from) != siteOf(to)) {
                    specs.add(WanLinkSpec.symmetric(linkName(from, to), new InetSocketAddress(HOST, 0),
                        new InetSocketAddress(HOST, port(to)), config));
                }
            }
        }
        return WanRelay.start(specs);
    }

    /** Datagrams the relay delivered, both directions of every link: > 0 proves the routes lead through it. */
    public long relayedDatagrams(final WanRelay relay) {
        long sum = 0;
        for (int from = 0; from < nodes(); from++) {
            for (int to = 0; to < nodes(); to++) {
                if (siteOf(from) != siteOf(to)) {
                    sum += relay.forwardCounters(linkName(from, to)).delivered() + relay.reverseCounters(linkName(from, to)).delivered();
                }
            }
        }
        return sum;
    }

    /** Routes of node {@code from}: each node of another site to the relay link that leads to it. */
    public Map<String, String> routesOf(final int from, final WanRelay relay) {
        final Map<String, String> routes = new HashMap<>();
        for (int to = 0; to < nodes(); to++) {
            if (siteOf(from) != siteOf(to)) {
                final InetSocketAddress via = relay.listenAddress(linkName(from, to));
                routes.put(endpoint(to), HOST + ":" + via.getPort());
            }
        }
        return routes;
    }
}
