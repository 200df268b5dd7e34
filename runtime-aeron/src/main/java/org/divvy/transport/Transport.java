package org.divvy.transport;

import org.agrona.DirectBuffer;
import org.divvy.bulk.OffHeapMemory;
import org.divvy.security.AuthenticationCounters;

/**
 * How a node's network agent reaches the wire: one inbound stream of whole frames with a valid header,
 * and one outbound {@code link} per peer endpoint with a bounded queue behind it. {@link AeronTransport}
 * is the real one; tests step agents over an in-memory one, with a fake clock and no UDP.
 *
 * <p>Owned by the network agent thread, including {@link #close()}.
 */
public interface Transport extends AutoCloseable {
    /** The {@code host:port} peers reach this node at. */
    String endpoint();

    /** The Aeron directory in use, or null when there is none (an in-memory transport). */
    default String aeronDirectoryName() {
        return null;
    }

    /**
     * Whether peers' endpoints are the UDP ports of real sockets, so that a datagram to one nobody holds is answered
     * by its host (the registry probes silent members so: {@code membership.ExitProbe}); false for transports
     * that are not (an in-memory one, whose endpoints name no socket).
     */
    default boolean endpointsAreUdpPorts() {
        return false;
    }

    /** What is refused below the frames this transport delivers (an embedded driver's guard), by reason; zeros if nothing is. */
    default ReceiveGuardCounters receiveGuard() {
        return new ReceiveGuardCounters();
    }

    /**
     * What the agent's deep-idle park waits in so that a datagram to this node ends it (an embedded driver's socket,
     * which the agent thread reads itself), or null when the transport has none (a standalone driver, in memory).
     */
    default DatagramWait datagramWait() {
        return null;
    }

    /** The largest message {@link #send} takes (larger ones are refused and counted); chunked on the wire if needed. */
    int maxMessageBytes();

    /**
     * Steps what the transport runs on the caller's thread (an embedded driver, the client) while it has work, up to a
     * bound; returns the work done. For callers with a loop of their own; the network agent splits it into
     * {@link #beginDriverWork()} and {@link #endDriverWork()} around its cycle.
     */
    int doDriverWork();

    /**
     * The start of an agent's duty cycle: steps the embedded driver once (its receiver reads about one datagram, its
     * sender sends what was offered) and the client; returns the work done. Then {@link #poll} delivers what arrived.
     */
    default int beginDriverWork() {
        return doDriverWork();
    }

    /**
     * After an agent's poll, before its duties: sends at once what the poll's handlers offered (a steal reply, the
     * thief's next request), so it does not wait for the duties to run; returns the work done. Nothing when the
     * handlers sent nothing.
     */
    default int sendHandlersFrames() {
        return 0;
    }

    /**
     * The end of an agent's duty cycle, after its handlers and duties sent: steps the embedded driver again, while it
     * has work, when the cycle's first step found some or a message was offered since, so that what the cycle sent
     * leaves now rather than in the next cycle, and a large message's datagrams keep being read. Returns the work done.
     */
    default int endDriverWork() {
        return 0;
    }

    /** Delivers up to {@code fragmentLimit} fragments' worth of frames to {@code handler}; returns how many fragments. */
    int poll(FrameHandler handler, int fragmentLimit);

    /** The link to {@code peerEndpoint} ({@code host:port}), created on first use; its id stays valid. */
    int linkTo(String peerEndpoint);

    /**
     * Sends one whole frame (header included) on a link, or queues it behind earlier ones.
     *
     * @return false if it was not taken (too large, or the link's queue is full; counted either way): the
     * caller still has it, to retry later or to handle as not sent.
     */
    boolean send(int linkId, DirectBuffer buffer, int offset, int length);

    /**
     * As {@link #send}, for a frame in a buffer of its own (from offset 0): if it must wait, the transport
     * keeps the buffer instead of copying it (large messages, encoded off the agent thread). On true the
     * buffer is the transport's; on false it is still the caller's, to retry or drop.
     */
    default boolean sendOwned(final int linkId, final DirectBuffer buffer, final int length) {
        return send(linkId, buffer, 0, length);
    }

    /** Bytes of bulk messages (above 1 KiB) queued on a link, not yet taken by its publication. */
    default long queuedBulkBytes(final int linkId) {
        return 0;
    }

    /**
     * The memory big received messages come in ({@link OffHeapMemory}: frames above
     * {@link FrameHandler#OWN_BUFFER_MIN_BYTES}), or null for a transport that delivers them on the heap.
     */
    default OffHeapMemory offHeapMemory() {
        return null;
    }

    /** Whether a chunked message is partly received: a node receiving one is not idle, whatever else it does. */
    default boolean isReceivingLargeMessage() {
        return false;
    }

    /** Whether any link still has messages waiting. */
    boolean hasQueued();

    /** Retries queued messages of every link, up to {@code limitPerLink} each; returns how many went out. */
    int doOutboundWork(int limitPerLink);

    /**
     * Closes a link (the peer died or left) and drops what is queued for it; a later send opens it again.
     *
     * @return how many queued messages were dropped.
     */
    int closeLink(int linkId);

    /** As {@link #closeLink(int)} for the link to {@code peerEndpoint}, if there is one; 0 if there is none. */
    int closeLinkTo(String peerEndpoint);

    /**
     * From now on, sign and accept the frames of the run whose key id the registry chose (see
     * {@link org.divvy.security.FrameAuthenticator}); nothing for a transport that does not authenticate.
     */
    default void useRunKey(final int runKeyId) {
    }

    /**
     * Who is told when messages to or from a peer were lost below Divvy (a skip in a stream's sequence numbers, a
     * partly received message whose stream went away, a publication made anew under queued or sent messages); the
     * agent thread, before the first poll. Nothing for a transport that never loses messages.
     */
    default void lossListener(final LossListener listener) {
    }

    /** Received frames that failed authentication, per reason; all zero for a transport that does not authenticate. */
    default AuthenticationCounters authenticationCounters() {
        return new AuthenticationCounters();
    }

    /** Messages and bytes per type, and what was dropped. */
    TrafficCounters traffic();

    @Override
    void close();
}
