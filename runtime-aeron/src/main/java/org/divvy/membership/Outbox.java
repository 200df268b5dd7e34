package org.divvy.membership;

import org.agrona.DirectBuffer;

/**
 * How membership sends frames and cuts peers; the network agent implements it over the transport, a
 * test records the frames. Called on the agent thread.
 */
public interface Outbox {
    /** Sends one whole frame to the node at {@code endpoint}. */
    void send(String endpoint, DirectBuffer buffer, int offset, int length);

    /** Closes the way to {@code endpoint} (the peer died or left) and drops what is queued for it. */
    void cut(String endpoint);
}
