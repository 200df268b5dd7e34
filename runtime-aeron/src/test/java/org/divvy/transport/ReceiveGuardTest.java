package org.divvy.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.CongestionControl;
import io.aeron.driver.CongestionControlSupplier;
import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.SetupFlyweight;

/** What the embedded driver's receive guard lets through, counts and reports (issue 7, finding 4). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ReceiveGuardTest {
    private static final int STREAM = 0xD1;
    private static final int TERM = 256 * 1024;
    private static final int MTU = 1408;
    private static final int MAX_STREAMS = 2;

    private final List<Throwable> reported = new ArrayList<>();
    private final ReceiveGuardCounters counters = new ReceiveGuardCounters();
    private final ReceiveGuard guard = new ReceiveGuard(STREAM, TERM, MTU, MAX_STREAMS, reported::add, counters);
    private final SetupFlyweight setup = new SetupFlyweight(ByteBuffer.allocate(SetupFlyweight.HEADER_LENGTH));
    private final DataHeaderFlyweight data = new DataHeaderFlyweight(ByteBuffer.allocate(DataHeaderFlyweight.HEADER_LENGTH));
    private final CongestionControlSupplier images = guard.tracking(
        (registrationId, udpChannel, streamId, sessionId, termLength, senderMtu, controlAddress, sourceAddress,
            nanoClock, context, countersManager) -> new NoCongestionControl());

    @Test
    void shouldLetThroughTheSetupOfADivvyPublication() {
        assertTrue(guard.admitSetup(setup(1, STREAM, TERM, MTU, 4096)));
        assertTrue(guard.admitSetup(setup(1, STREAM, 64 * 1024, MTU, 4096)), "a peer with shorter terms");
        assertEquals(0, counters.setupsRefused());
        assertEquals(List.of(), reported);
    }

    @Test
    void shouldRefuseSetupsNoDivvyPublicationSendsCountingEachReason() {
        assertFalse(guard.admitSetup(setup(1, 7, TERM, MTU, 0)));
        assertFalse(guard.admitSetup(setup(1, STREAM, 1 << 30, MTU, 0)));
        assertFalse(guard.admitSetup(setup(1, STREAM, 131_000, MTU, 0)));
        assertFalse(guard.admitSetup(setup(1, STREAM, 32 * 1024, MTU, 0)));
        assertFalse(guard.admitSetup(setup(1, STREAM, TERM, 65504, 0)));
        assertFalse(guard.admitSetup(setup(1, STREAM, TERM, MTU, 33)));
        assertFalse(guard.admitSetup(setup(1, STREAM, TERM, MTU, TERM)));
        assertFalse(guard.admitSetup(setup(1, STREAM, TERM, MTU, 0).activeTermId(setup.initialTermId() - 1)));
        assertEquals(1, counters.setupOtherStream.get());
        assertEquals(3, counters.setupTermLength.get());
        assertEquals(1, counters.setupMtu.get());
        assertEquals(3, counters.setupMalformed.get());
        assertEquals(8, reported.size());
        // one preallocated instance per reason: the error log counts repeats without allocating
        assertSame(reported.get(1), reported.get(2));
        assertSame(reported.get(5), reported.get(7));
        assertTrue(reported.get(1).getMessage().contains("termLengthBytes (262144)"), reported.get(1).getMessage());
        assertEquals(0, reported.get(0).getStackTrace().length);
    }

    @Test
    void shouldRefuseNewSessionsBeyondTheMostStreamsButNotTheOnesItHas() {
        final CongestionControl first = openImage(1);
        final CongestionControl second = openImage(2);
        assertEquals(2, counters.streams.get());
        assertFalse(guard.admitSetup(setup(3, STREAM, TERM, MTU, 0)), "a third session");
        assertTrue(guard.admitSetup(setup(2, STREAM, TERM, MTU, 0)), "a session with an image already");
        assertEquals(1, counters.setupStreamLimit.get());
        first.close();
        first.close(); // closed twice by the driver on a failed creation: counted once
        assertEquals(1, counters.streams.get());
        assertTrue(guard.admitSetup(setup(3, STREAM, TERM, MTU, 0)));
        second.close();
        assertEquals(0, counters.streams.get());
        assertEquals(2, counters.mostStreams.get());
    }

    @Test
    void shouldPassDataOfItsStreamsAndOnlyAFewASecondOfUnknownSessions() {
        openImage(5);
        final long startNs = TimeUnit.SECONDS.toNanos(100);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(guard.admitData(data(5, STREAM), startNs));
        }
        assertFalse(guard.admitData(data(5, 7), startNs));
        int unknownAdmitted = 0;
        for (int i = 0; i < 1_000; i++) {
            unknownAdmitted += guard.admitData(data(1_000 + i, STREAM), startNs) ? 1 : 0;
        }
        assertEquals(ReceiveGuard.SETUP_REQUESTS_BURST, unknownAdmitted);
        // a second later, another second's worth
        unknownAdmitted = 0;
        for (int i = 0; i < 1_000; i++) {
            unknownAdmitted += guard.admitData(data(5_000 + i, STREAM), startNs + TimeUnit.SECONDS.toNanos(1)) ? 1 : 0;
        }
        assertEquals(ReceiveGuard.SETUP_REQUESTS_PER_SECOND, unknownAdmitted);
        assertEquals(1, counters.dataOtherStream.get());
        assertEquals(2_000 - 2 * ReceiveGuard.SETUP_REQUESTS_PER_SECOND, counters.dataUnknownSession.get());
    }

    private CongestionControl openImage(final int sessionId) {
        return images.newInstance(1, null, STREAM, sessionId, TERM, MTU, new InetSocketAddress(0),
            new InetSocketAddress(0), null, null, null);
    }

    private SetupFlyweight setup(final int sessionId, final int streamId, final int termLength, final int mtu,
        final int termOffset) {
        setup.sessionId(sessionId).streamId(streamId).termLength(termLength).mtuLength(mtu).termOffset(termOffset)
            .initialTermId(100).activeTermId(102);
        return setup;
    }

    private DataHeaderFlyweight data(final int sessionId, final int streamId) {
        data.sessionId(sessionId).streamId(streamId);
        return data;
    }

    /** A congestion control the test's fake driver creates with each image. */
    private static final class NoCongestionControl implements CongestionControl {
        @Override
        public boolean shouldMeasureRtt(final long nowNs) {
            return false;
        }

        @Override
        public void onRttMeasurementSent(final long nowNs) {
        }

        @Override
        public void onRttMeasurement(final long nowNs, final long rttNs, final InetSocketAddress srcAddress) {
        }

        @Override
        public long onTrackRebuild(final long nowNs, final long newConsumptionPosition, final long lastSmPosition,
            final long hwmPosition, final long startingRebuildPosition, final long endingRebuildPosition,
            final boolean lossOccurred) {
            return 0;
        }

        @Override
        public int initialWindowLength() {
            return 0;
        }

        @Override
        public int maxWindowLength() {
            return 0;
        }

        @Override
        public void close() {
        }
    }
}
