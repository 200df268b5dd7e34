package org.divvy.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BitUtil;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2IntCounterMap;

import io.aeron.driver.CongestionControl;
import io.aeron.driver.CongestionControlSupplier;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.SetupFlyweight;

/**
 * What the embedded driver lets in from the node's UDP port, decided before the driver acts on a frame.
 * Aeron's driver trusts SETUP frames: each one for a new session creates an image (a log buffer of three
 * terms of the sender's chosen length, mapped in the driver's directory), and one with values it cannot use
 * throws an exception that is reported per datagram. DATA of an unknown session makes it answer and keep a
 * pending entry for a second. A sender of garbage can so create hundreds of images, fill the error log and
 * slow the agent that steps the driver (which also sends the node's heartbeats).
 *
 * <p>The guard lets through only what a Divvy node's publication sends:
 * <ul>
 * <li>a SETUP for Divvy's stream, with a term length no longer than this node's (images are then no larger
 *     than the ones this node's peers get from it), this node's MTU (every node uses the same), a term
 *     offset inside the term on a frame boundary and an active term not before the initial one, and for a
 *     new session only while the node receives fewer than {@code maxInboundStreams} streams;</li>
 * <li>DATA and PAD for Divvy's stream, of a session that has an image here, or, a few a second, of one that
 *     has none (the driver then asks its sender for a SETUP: how a stream whose image timed out in a pause
 *     comes back).</li>
 * </ul>
 * Everything else is dropped before the driver sees it and counted per reason in
 * {@link ReceiveGuardCounters}; each refusal is reported to the error handler as that reason's one
 * {@link RefusedFrameException}, so the error log logs it once and then counts. Frames the guard lets
 * through are still checked by the driver (and then by the node's own frame checks).
 *
 * <p>It learns which sessions have an image from the driver's congestion control, which the driver creates
 * with each image and closes with it. Used only with an INVOKER driver: the endpoint's callbacks and the
 * congestion control's creation and close all run on the one thread that steps the driver.
 */
final class ReceiveGuard {
    /** Unknown sessions' DATA let through to ask for a SETUP: at most this many in a burst... */
    static final int SETUP_REQUESTS_BURST = 32;
    /** ...and this many a second on average. */
    static final int SETUP_REQUESTS_PER_SECOND = 32;
    /** Aeron's shortest term. */
    private static final int MIN_TERM_LENGTH = 64 * 1024;
    private static final long NS_PER_SETUP_REQUEST = TimeUnit.SECONDS.toNanos(1) / SETUP_REQUESTS_PER_SECOND;

    private final int streamId;
    private final int termLength;
    private final int mtu;
    private final int maxStreams;
    private final ErrorHandler errorHandler;
    private final ReceiveGuardCounters counters;
    private final Int2IntCounterMap streamsBySession = new Int2IntCounterMap(0);
    private final RefusedFrameException otherStreamSetup;
    private final RefusedFrameException termLengthSetup;
    private final RefusedFrameException mtuSetup;
    private final RefusedFrameException malformedSetup;
    private final RefusedFrameException streamLimitSetup;
    private final RefusedFrameException otherStreamData;
    private final RefusedFrameException unknownSessionData;
    private long setupRequestCreditNs = SETUP_REQUESTS_BURST * NS_PER_SETUP_REQUEST;
    private long creditUpdatedNs;

    ReceiveGuard(final int streamId, final int termLength, final int mtu, final int maxStreams,
        final ErrorHandler errorHandler, final ReceiveGuardCounters counters) {
        this.streamId = streamId;
        this.termLength = termLength;
        this.mtu = mtu;
        this.maxStreams = maxStreams;
        this.errorHandler = errorHandler;
        this.counters = counters;
        final String notDivvy = "not sent by a Divvy node of this cluster";
        otherStreamSetup = new RefusedFrameException(
            "refused an Aeron SETUP for a stream other than Divvy's: " + notDivvy);
        termLengthSetup = new RefusedFrameException("refused an Aeron SETUP whose term length is not a power of two " +
            "from 64 KiB to this node's termLengthBytes (" + termLength + "): a peer with longer terms (give every " +
            "node the same), or " + notDivvy);
        mtuSetup = new RefusedFrameException("refused an Aeron SETUP whose MTU is not this node's (" + mtu +
            "): every node must use the same aeron.mtu.length, or it is " + notDivvy);
        malformedSetup = new RefusedFrameException("refused an Aeron SETUP no Aeron publication sends (term offset " +
            "outside the term or off a frame boundary, active term before the initial term): " + notDivvy);
        streamLimitSetup = new RefusedFrameException("refused an Aeron SETUP for a new stream: this node already " +
            "receives maxInboundStreams (" + maxStreams + ") streams; raise it for a larger cluster, or a sender " +
            "that is not a member is opening streams");
        otherStreamData = new RefusedFrameException(
            "dropped Aeron DATA for a stream other than Divvy's: " + notDivvy);
        unknownSessionData = new RefusedFrameException("dropped Aeron DATA of a session with no stream here, beyond " +
            SETUP_REQUESTS_PER_SECOND + " a second that may ask their sender for a SETUP: garbage, or many streams " +
            "lost at once (they come back at that rate)");
    }

    /** For {@link MediaDriver.Context#congestControlSupplier}: {@code delegate}'s, telling this guard of each image. */
    CongestionControlSupplier tracking(final CongestionControlSupplier delegate) {
        return (registrationId, udpChannel, stream, sessionId, termLength, senderMtu, controlAddress, sourceAddress,
            nanoClock, context, countersManager) -> {
            final CongestionControl control = delegate.newInstance(registrationId, udpChannel, stream, sessionId,
                termLength, senderMtu, controlAddress, sourceAddress, nanoClock, context, countersManager);
            return stream == streamId ? new TrackedCongestionControl(control, sessionId) : control;
        };
    }

    ReceiveGuardCounters counters() {
        return counters;
    }

    /** Whether the driver may act on this SETUP; if not, it is counted and reported. */
    boolean admitSetup(final SetupFlyweight setup) {
        if (setup.streamId() != streamId) {
            return refuse(counters.setupOtherStream, otherStreamSetup);
        }
        final int setupTermLength = setup.termLength();
        if (setupTermLength < MIN_TERM_LENGTH || setupTermLength > termLength || !BitUtil.isPowerOfTwo(setupTermLength)) {
            return refuse(counters.setupTermLength, termLengthSetup);
        }
        if (setup.mtuLength() != mtu) {
            return refuse(counters.setupMtu, mtuSetup);
        }
        final int termOffset = setup.termOffset();
        if (termOffset < 0 || termOffset >= setupTermLength || (termOffset & (FrameDescriptor.FRAME_ALIGNMENT - 1)) != 0 ||
            setup.activeTermId() - setup.initialTermId() < 0) {
            return refuse(counters.setupMalformed, malformedSetup);
        }
        if (streamsBySession.get(setup.sessionId()) == 0 && counters.streams.get() >= maxStreams) {
            return refuse(counters.setupStreamLimit, streamLimitSetup);
        }
        return true;
    }

    /** Whether the driver may act on this DATA or PAD frame; if not, it is counted and reported. */
    boolean admitData(final DataHeaderFlyweight data, final long nowNs) {
        if (data.streamId() != streamId) {
            return refuse(counters.dataOtherStream, otherStreamData);
        }
        if (streamsBySession.get(data.sessionId()) > 0) {
            return true;
        }
        if (counters.streams.get() < maxStreams && takeSetupRequestCredit(nowNs)) {
            return true;
        }
        return refuse(counters.dataUnknownSession, unknownSessionData);
    }

    private boolean takeSetupRequestCredit(final long nowNs) {
        final long maxCreditNs = SETUP_REQUESTS_BURST * NS_PER_SETUP_REQUEST;
        setupRequestCreditNs = Math.min(maxCreditNs, setupRequestCreditNs + Math.max(0, nowNs - creditUpdatedNs));
        creditUpdatedNs = nowNs;
        if (setupRequestCreditNs < NS_PER_SETUP_REQUEST) {
            return false;
        }
        setupRequestCreditNs -= NS_PER_SETUP_REQUEST;
        return true;
    }

    private boolean refuse(final AtomicLong counter, final RefusedFrameException reason) {
        ReceiveGuardCounters.count(counter);
        errorHandler.onError(reason);
        return false;
    }

    private void onStreamOpened(final int sessionId) {
        streamsBySession.incrementAndGet(sessionId);
        final long streams = counters.streams.get() + 1;
        counters.streams.lazySet(streams);
        if (streams > counters.mostStreams.get()) {
            counters.mostStreams.lazySet(streams);
        }
    }

    private void onStreamClosed(final int sessionId) {
        streamsBySession.decrementAndGet(sessionId);
        counters.streams.lazySet(counters.streams.get() - 1);
    }

    /** The driver's congestion control of one image of Divvy's stream; its life is the image's. */
    private final class TrackedCongestionControl extends ForwardingCongestionControl {
        private final int sessionId;
        private boolean closed;

        TrackedCongestionControl(final CongestionControl delegate, final int sessionId) {
            super(delegate);
            this.sessionId = sessionId;
            onStreamOpened(sessionId);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                onStreamClosed(sessionId);
            }
            super.close();
        }
    }
}
