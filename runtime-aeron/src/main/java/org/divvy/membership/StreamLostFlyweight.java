package org.divvy.membership;

import org.divvy.protocol.HeaderFlyweight;

/**
 * STREAM_LOST: a member tells the registry that messages between it and a peer were lost below Divvy (Aeron gave
 * up on a stream and a new one started later in it: the sequence numbers of the peer's stream skipped some, a
 * partly received message's stream went away, or this member's own publication to the peer was made anew under
 * messages it had taken). Nothing is sent again, so the registry handles the loss as a failure: it declares the
 * reporter or the peer dead (see {@code Registry.onStreamLost}) and recovery re-runs what was lost.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                      Peer Id (int32)                          |
 *  +---------------------------------------------------------------+
 *  |                      Flags (int32)                            |
 *  +---------------------------------------------------------------+
 *  |                      Lost (int64)                             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                      Reporter Paused Ms (int64)               |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Peer Id is the node whose stream lost messages, or {@code Registry.REGISTRY_ID} when they were the registry's
 * frames. Flags bit 0 ({@link #SENT_BY_REPORTER}): the lost messages went from the reporter to the peer, not the
 * other way. Lost is how many (0: unknown). Reporter Paused Ms is the longest recent stop of the reporter itself
 * (a gap between its duty cycles, 0 if none): a node that was stopped for seconds broke its own streams, and is
 * the one the registry removes.
 */
public final class StreamLostFlyweight extends HeaderFlyweight {
    /** The message type code (STREAM_LOST). */
    public static final int TYPE = 24;
    /** Flags bit: the lost messages were sent by the reporter. */
    public static final int SENT_BY_REPORTER = 1;
    public static final int PEER_ID_OFFSET = HEADER_LENGTH;
    public static final int FLAGS_OFFSET = PEER_ID_OFFSET + 4;
    public static final int LOST_OFFSET = FLAGS_OFFSET + 4;
    public static final int PAUSED_MS_OFFSET = LOST_OFFSET + 8;
    public static final int BODY_LENGTH = PAUSED_MS_OFFSET + 8 - HEADER_LENGTH;
    public static final int MIN_BODY_LENGTH = BODY_LENGTH;
    public static final int FRAME_LENGTH = HEADER_LENGTH + BODY_LENGTH;

    public int peerId() {
        return buffer.getInt(PEER_ID_OFFSET, BYTE_ORDER);
    }

    public boolean sentByReporter() {
        return (buffer.getInt(FLAGS_OFFSET, BYTE_ORDER) & SENT_BY_REPORTER) != 0;
    }

    public long lost() {
        return buffer.getLong(LOST_OFFSET, BYTE_ORDER);
    }

    public long reporterPausedMs() {
        return buffer.getLong(PAUSED_MS_OFFSET, BYTE_ORDER);
    }

    /** Sets the body and the frame length. */
    public StreamLostFlyweight fields(final int peerId, final boolean sentByReporter, final long lost,
        final long reporterPausedMs) {
        buffer.putInt(PEER_ID_OFFSET, peerId, BYTE_ORDER);
        buffer.putInt(FLAGS_OFFSET, sentByReporter ? SENT_BY_REPORTER : 0, BYTE_ORDER);
        buffer.putLong(LOST_OFFSET, lost, BYTE_ORDER);
        buffer.putLong(PAUSED_MS_OFFSET, reporterPausedMs, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH && lost() >= 0 && reporterPausedMs() >= 0;
    }
}
