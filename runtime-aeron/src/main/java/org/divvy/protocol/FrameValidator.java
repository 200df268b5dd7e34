package org.divvy.protocol;

import org.agrona.DirectBuffer;

/**
 * Checks the header of a received frame before anything reads it: at least a header's bytes, the
 * current version, and a frame length equal to the bytes received. A frame that fails is counted in
 * {@link FrameCounters} under its reason and must be dropped. What a frame's type requires of its body
 * is checked next, by the dispatcher, with the flyweight its mechanism registered for the type.
 *
 * <p>Owned by one thread (the network agent); allocates nothing and never throws on bad input.
 */
public final class FrameValidator {
    /** Returned by {@link #validateHeader} for a frame to drop. */
    public static final int INVALID = -1;

    private final FrameCounters counters;

    public FrameValidator(final FrameCounters counters) {
        this.counters = counters;
    }

    public FrameCounters counters() {
        return counters;
    }

    /**
     * @return the frame's type code (0 to 255, not yet known to be registered) if its header is well
     * formed, else {@link #INVALID} after counting the reason.
     */
    public int validateHeader(final DirectBuffer buffer, final int offset, final int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH || offset < 0 || offset + length > buffer.capacity()) {
            FrameCounters.increment(counters.truncated);
            return INVALID;
        }
        final int version = buffer.getByte(offset + HeaderFlyweight.VERSION_OFFSET) & 0xFF;
        if (version != HeaderFlyweight.CURRENT_VERSION) {
            FrameCounters.increment(counters.badVersion);
            return INVALID;
        }
        final int frameLength = buffer.getInt(offset + HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER);
        if (frameLength > length) {
            FrameCounters.increment(counters.truncated);
            return INVALID;
        }
        if (frameLength != length) {
            FrameCounters.increment(counters.badLength);
            return INVALID;
        }
        return buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF;
    }

    /**
     * Checks a body against what its type requires: at least {@code minBodyLength} bytes after the
     * header, then the flyweight's own check of its variable-length fields ({@code body} is re-wrapped).
     *
     * @return whether the frame may be read with that flyweight.
     */
    public boolean validateBody(final HeaderFlyweight body, final int minBodyLength, final DirectBuffer buffer,
        final int offset, final int length) {
        if (length - HeaderFlyweight.HEADER_LENGTH < minBodyLength) {
            FrameCounters.increment(counters.truncated);
            return false;
        }
        body.wrap(buffer, offset, length);
        if (!body.isBodyWellFormed(length)) {
            FrameCounters.increment(counters.malformed);
            return false;
        }
        return true;
    }
}
