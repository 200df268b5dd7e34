package org.divvy.perf.wan;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One emulated link of a {@link WanRelay}: datagrams sent to {@code listenAddress} go to
 * {@code targetAddress} impaired by {@code forward}; the target's replies (which arrive at the relay's
 * upstream socket) go back to the last client that sent on the link, impaired by {@code reverse}.
 * Relaying replies matters for Aeron: a receiver sends status messages and NAKs to the address the data
 * came from.
 *
 * @param name          unique within the relay, for counters and logs ({@code "site-a->site-b"})
 * @param listenAddress where the relay listens for the client side; port 0 picks a free port
 * @param targetAddress where the relay forwards to
 * @param forward       impairments from client to target
 * @param reverse       impairments from target back to client
 */
public record WanLinkSpec(
    String name, InetSocketAddress listenAddress, InetSocketAddress targetAddress, WanLinkConfig forward, WanLinkConfig reverse) {

    public WanLinkSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(listenAddress, "listenAddress");
        Objects.requireNonNull(targetAddress, "targetAddress");
        Objects.requireNonNull(forward, "forward");
        Objects.requireNonNull(reverse, "reverse");
        if (targetAddress.isUnresolved()) {
            throw new IllegalArgumentException("link " + name + ": targetAddress=" + targetAddress + " is unresolved");
        }
    }

    /** A link impaired the same way in both directions (each direction with its own shaper state). */
    public static WanLinkSpec symmetric(
        final String name, final InetSocketAddress listenAddress, final InetSocketAddress targetAddress, final WanLinkConfig config) {
        return new WanLinkSpec(name, listenAddress, targetAddress, config, config);
    }
}
