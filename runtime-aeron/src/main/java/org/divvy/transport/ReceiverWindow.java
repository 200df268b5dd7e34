package org.divvy.transport;

import io.aeron.driver.CongestionControl;
import io.aeron.driver.CongestionControlSupplier;

/**
 * Caps the receiver window of every image at a quarter of its term, so that a stream whose last window was
 * lost whole can always be repaired.
 *
 * <p>Aeron's receiver drops any frame that ends more than half a term beyond its last status message
 * (a "flow control overrun"), and a sender may send up to one receiver window beyond it. Its window is
 * {@code min(term / 2, initialWindowLength)}: half a term by default. A sender that reaches the end of a term
 * writes a padding frame and moves its position to the term's end, up to a message (an eighth of a term)
 * beyond its window, so past the receiver's overrun bound. If every frame of that window was lost (a
 * receive socket buffer overflowing while the node's agent was busy or paused), the receiver never learns
 * of the loss: the data frames are gone, and the sender's heartbeats, at the term's end, are dropped as
 * overruns. No NAK is sent, nothing is retransmitted, the subscriber stops at the gap and the stream is
 * stuck until the image times out, taking every message behind it along (seen: four nodes sorting 10M ints
 * lost a node's heartbeats to the registry for 5 s in one run of three). With the window at a quarter
 * term, a sender's position stays within {@code quarter + eighth < half} a term of the last status
 * message: its heartbeats are heard, the receiver sees the gap and asks for it again.
 *
 * <p>The cost is throughput per stream where the window limits it (long links): a quarter term in flight
 * per round trip, 64 KiB with the default 256 KiB terms (about 1.3 MB/s per stream at 50 ms), half of
 * Aeron's default. A larger {@code termLengthBytes} raises it up to 512 KiB terms, where Aeron's own
 * initial window (128 KiB) is the limit again; not yet measured on the WAN harness.
 */
final class ReceiverWindow {
    private ReceiverWindow() {
    }

    /** The largest receiver window for an image of a sender's {@code termLength}. */
    static int cap(final int termLength) {
        return termLength / 4;
    }

    /** {@code delegate}'s congestion control for each image, its window capped at {@link #cap}. */
    static CongestionControlSupplier capped(final CongestionControlSupplier delegate) {
        return (registrationId, udpChannel, stream, sessionId, termLength, senderMtu, controlAddress, sourceAddress,
            nanoClock, context, countersManager) -> new Capped(delegate.newInstance(registrationId, udpChannel, stream,
            sessionId, termLength, senderMtu, controlAddress, sourceAddress, nanoClock, context, countersManager),
            cap(termLength));
    }

    private static final class Capped extends ForwardingCongestionControl {
        private final int cap;

        Capped(final CongestionControl delegate, final int cap) {
            super(delegate);
            this.cap = cap;
        }

        @Override
        public long onTrackRebuild(final long nowNs, final long newConsumptionPosition, final long lastSmPosition,
            final long hwmPosition, final long startingRebuildPosition, final long endingRebuildPosition,
            final boolean lossOccurred) {
            final long outcome = super.onTrackRebuild(nowNs, newConsumptionPosition, lastSmPosition, hwmPosition,
                startingRebuildPosition, endingRebuildPosition, lossOccurred);
            return CongestionControl.receiverWindowLength(outcome) <= cap ? outcome :
                CongestionControl.packOutcome(cap, CongestionControl.shouldForceStatusMessage(outcome));
        }

        @Override
        public int initialWindowLength() {
            return Math.min(super.initialWindowLength(), cap);
        }

        @Override
        public int maxWindowLength() {
            return Math.min(super.maxWindowLength(), cap);
        }
    }
}
