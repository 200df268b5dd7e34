package org.divvy.agent;

/**
 * Commands from workers to the network agent through the ring buffer: the ring message type, then a
 * payload of {@code [destination node id int32][a whole protocol frame]}. The proxy writes the frame;
 * the agent fills in the header's sender id and epoch (and a steal request's thief id) before sending.
 */
final class NetworkCommand {
    /** Send the frame to one node. */
    static final int SEND = 1;
    /** Send the frame to every alive member but this node. */
    static final int BROADCAST = 2;
    /** Leave the run gracefully; no payload. */
    static final int LEAVE = 3;

    static final int DESTINATION_OFFSET = 0;
    static final int FRAME_OFFSET = 4;

    private NetworkCommand() {
    }
}
