package org.divvy.recovery;

import org.divvy.protocol.HeaderFlyweight;

/**
 * ORPHAN_RESULTS_ACK: the staying node took a departing node's ORPHAN_RESULTS and says how many entries it
 * kept. The departing node sends its LEAVE only after this (or a bounded wait): once the others learn it left,
 * they drop its frames, so a hand-over still on its way would be lost, and its results recomputed.
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                     Header (HEADER_LENGTH)                    |
 *  +---------------------------------------------------------------+
 *  |                      Entries Kept (int32)                     |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * Entries Kept is {@link #REFUSED} when the would-be taker is leaving too (a whole site leaving at once): it keeps
 * nothing, and the leaver hands its results to another node.
 */
public final class OrphanResultsAckFlyweight extends HeaderFlyweight {
    /** The message type code (ORPHAN_RESULTS_ACK). */
    public static final int TYPE = 23;
    public static final int KEPT_OFFSET = HEADER_LENGTH;
    public static final int BODY_LENGTH = 4;
    public static final int MIN_BODY_LENGTH = BODY_LENGTH;
    public static final int FRAME_LENGTH = HEADER_LENGTH + BODY_LENGTH;
    /** Entries Kept of a node that is leaving itself: it took nothing. */
    public static final int REFUSED = -1;

    public int kept() {
        return buffer.getInt(KEPT_OFFSET, BYTE_ORDER);
    }

    /** Sets the count and the frame length. */
    public OrphanResultsAckFlyweight kept(final int kept) {
        buffer.putInt(KEPT_OFFSET, kept, BYTE_ORDER);
        frameLength(FRAME_LENGTH);
        return this;
    }

    @Override
    public boolean isBodyWellFormed(final int frameLength) {
        return frameLength == FRAME_LENGTH;
    }
}
