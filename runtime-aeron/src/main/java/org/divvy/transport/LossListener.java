package org.divvy.transport;

/**
 * Told when the transport knows that messages between this node and a peer were lost below Divvy (Aeron gave up
 * on a stream and a new one started later in it): nothing is resent, so the loss must be handled as the failure
 * of one side of the link, or a parent may wait for a lost result forever. Membership reports it to the registry
 * ({@code STREAM_LOST}), which declares one of the two dead. Called on the agent thread, never while a frame is
 * being handled by a mechanism; it must only record the loss, not send or throw.
 */
public interface LossListener {
    /** A listener that ignores losses (a transport before its node is assembled; tools that are no member). */
    LossListener NONE = new LossListener() {
        @Override
        public void onReceiveLoss(final int senderId, final long lost) {
        }

        @Override
        public void onSendLoss(final String peerEndpoint) {
        }
    };

    /**
     * Messages from {@code senderId} (the sender id of the authentic frame that showed the loss: a node id, or the
     * registry's) never arrived: {@code lost} of them (the skip in its stream's sequence numbers).
     */
    void onReceiveLoss(int senderId, long lost);

    /**
     * The stream to {@code peerEndpoint} ended (its publication was closed under it and is made anew) while
     * messages it had taken may not have arrived: how many is unknown.
     */
    void onSendLoss(String peerEndpoint);
}
