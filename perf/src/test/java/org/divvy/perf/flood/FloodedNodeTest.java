package org.divvy.perf.flood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 7, finding 4: Aeron-shaped garbage sent to a node's UDP port (real UDP, the node's own embedded
 * driver) is refused and counted, logged once per cause and never with a stack trace per datagram, cannot
 * make the driver create more than {@code maxInboundStreams} images, and does not cost the node its
 * membership: its heartbeats keep reaching the registry and the registry's keep reaching it.
 */
class FloodedNodeTest {
    private static final int MAX_STREAMS = 8;
    private static final long DATAGRAMS = 100_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseCountAndLogOnceAFloodOfGarbageAndStayAMember() throws Exception {
        final FloodStall.Result flood = FloodStall.run(DATAGRAMS, 7, 1, 2, MAX_STREAMS);
        final String report = flood.toString();

        assertEquals(DATAGRAMS, flood.datagramsSent(), report);
        assertFalse(flood.registryLost(), "the member stayed a member: " + report);
        // bounded images: the registry's stream plus what the garbage's plausible SETUPs got, never its own sizes
        assertTrue(flood.mostImages() <= MAX_STREAMS, report);
        assertTrue(flood.guard().mostStreams.get() <= MAX_STREAMS, report);
        assertTrue(flood.guard().setupStreamLimit.get() > 0, report);
        // counted per reason; each reason is logged at 1, 10, 100... times, without a stack trace
        assertTrue(flood.guard().setupTermLength.get() > 0 && flood.guard().setupOtherStream.get() > 0 &&
            flood.guard().dataUnknownSession.get() > 0, report);
        assertEquals(0, flood.errorLogTraces(), report);
        assertTrue(flood.errorLogLines() <= 7 * 6, "a few lines per cause, not one per datagram: " + report);
        // nothing reached the driver that made it throw, and the driver printed nothing
        assertEquals(0, flood.cncDistinctErrors(), report);
        assertEquals(0, flood.stderrLines(), report);
    }
}
