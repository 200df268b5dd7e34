package org.divvy.security;

/**
 * The sequence numbers received from one sender instance: the highest, and which of the
 * {@value #WIDTH} before it were seen (the sliding window of IPsec and DTLS, RFC 4303 §3.4.3). Frames
 * of one sender reach a receiver in order on one Aeron stream, so the window only has to absorb the
 * rare reordering between two streams to the same receiver.
 *
 * <p>Owned by the agent thread.
 */
final class ReplayWindow {
    static final int WIDTH = 128;

    /** Highest sequence number accepted; -1 before the first. */
    private long highest = -1;
    /** Bit i of low/high: {@code highest - i} was accepted (i in [0, 64) in low, [64, 128) in high). */
    private long low;
    private long high;

    /** Whether {@code sequence} may still be accepted: newer than the highest, or in the window and not seen. */
    boolean isFresh(final long sequence) {
        if (sequence > highest) {
            return true;
        }
        final long behind = highest - sequence;
        if (behind >= WIDTH) {
            return false;
        }
        return behind < 64 ? (low & (1L << behind)) == 0 : (high & (1L << (behind - 64))) == 0;
    }

    /** Records {@code sequence} as accepted; call only after {@link #isFresh} and a valid tag. */
    void accept(final long sequence) {
        if (sequence > highest) {
            final long shift = highest < 0 ? WIDTH : sequence - highest;
            if (shift >= WIDTH) {
                low = 0;
                high = 0;
            } else if (shift >= 64) {
                high = low << (shift - 64);
                low = 0;
            } else {
                high = (high << shift) | (low >>> (64 - shift));
                low <<= shift;
            }
            low |= 1;
            highest = sequence;
            return;
        }
        final long behind = highest - sequence;
        if (behind < 64) {
            low |= 1L << behind;
        } else {
            high |= 1L << (behind - 64);
        }
    }
}
