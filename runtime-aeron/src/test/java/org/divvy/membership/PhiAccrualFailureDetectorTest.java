package org.divvy.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The phi-accrual detector and the own-pause check as pure policies, with numbers: no network, times handed in. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PhiAccrualFailureDetectorTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long INTERVAL_NS = 100 * MS;

    /** The defaults of NodeSettings: heartbeats every 100 ms, 7 s acceptable pause, phi 8. */
    private static PhiAccrualFailureDetector defaults() {
        return PhiAccrualFailureDetector.of(NodeConfig.builder().networked(true).build());
    }

    /** Heartbeats of {@code id} every {@code intervalNs} from {@code fromNs} for {@code count} beats; returns the last time. */
    private static long beat(final PhiAccrualFailureDetector detector, final int id, final long fromNs, final long intervalNs,
        final int count) {
        long t = fromNs;
        for (int i = 0; i < count; i++) {
            t = fromNs + i * intervalNs;
            detector.onHeard(id, t);
        }
        return t;
    }

    private static List<Integer> suspected(final PhiAccrualFailureDetector detector, final long nowNs) {
        final List<Integer> ids = new ArrayList<>();
        detector.pollSuspected(nowNs, (id, silenceNs, phi) -> ids.add(id));
        return ids;
    }

    @Test
    void phiShouldBeMinusLog10OfTheNormalTail() {
        // -log10(1 - CDF(y)) for y standard deviations past the mean, by the logistic approximation
        assertEquals(Math.log10(2), PhiAccrualFailureDetector.phi(1000, 1000, 100), 1e-9, "on time: a one-in-two chance");
        assertEquals(0.7995, PhiAccrualFailureDetector.phi(1100, 1000, 100), 1e-3, "one deviation late");
        assertEquals(2.9095, PhiAccrualFailureDetector.phi(1300, 1000, 100), 1e-3, "three deviations late");
        assertEquals(8.0, PhiAccrualFailureDetector.phi(6226, 1000, 1000), 0.01, "phi 8 at 5.23 deviations");
        assertTrue(PhiAccrualFailureDetector.phi(900, 1000, 100) < Math.log10(2), "early: below one-in-two");
        assertEquals(Double.POSITIVE_INFINITY, PhiAccrualFailureDetector.phi(100_000, 1000, 100), "underflow: certain");
        double previous = 0;
        for (long t = 0; t < 2000; t += 10) {
            final double phi = PhiAccrualFailureDetector.phi(t, 1000, 100);
            assertTrue(phi >= previous, "grows with the silence at " + t);
            previous = phi;
        }
    }

    @Test
    void withTheDefaultsASteadyNodeShouldBeSuspectedAboutSevenPointSixSecondsAfterItsLastHeartbeat() {
        final PhiAccrualFailureDetector detector = defaults();
        final long lastNs = beat(detector, 1, 0, INTERVAL_NS, 200);
        // mean 100 ms + pause 7 s, deviation at its 100 ms floor: phi 8 at 7.1 + 5.23 x 0.1 = 7.62 s of silence
        assertEquals(7.30, detector.phi(1, lastNs + 7600 * MS), 0.05);
        assertEquals(List.of(), suspected(detector, lastNs + 7600 * MS));
        assertEquals(List.of(1), suspected(detector, lastNs + 7630 * MS));
        assertFalse(detector.isWatched(1), "reported once and forgotten");
        assertEquals(List.of(), suspected(detector, lastNs + 20_000 * MS));
    }

    @Test
    void aFiveSecondStopShouldBeSurvivedAndNotSlowTheNextDetection() {
        final PhiAccrualFailureDetector detector = defaults();
        long t = beat(detector, 1, 0, INTERVAL_NS, 200);
        for (long now = t; now <= t + 5000 * MS; now += 10 * MS) {
            assertEquals(List.of(), suspected(detector, now), "suspected " + (now - t) / MS + " ms into a 5 s stop");
        }
        t = beat(detector, 1, t + 5000 * MS, INTERVAL_NS, 100); // it resumes
        // the 5 s interval was a pause, not the rhythm: the next silence is judged as before it
        assertEquals(List.of(), suspected(detector, t + 7600 * MS));
        assertEquals(List.of(1), suspected(detector, t + 7630 * MS));
    }

    @Test
    void aKilledNodeShouldBeSuspectedWithinTenSecondsEvenWithAJitteryRhythm() {
        final PhiAccrualFailureDetector detector = defaults();
        // heartbeats 100 ms apart, every fifth one 400 ms late (a busy machine): deviation about 160 ms
        long t = 0;
        for (int i = 0; i < 1000; i++) {
            t += i % 5 == 0 ? 500 * MS : INTERVAL_NS;
            detector.onHeard(1, t);
        }
        long suspectedAfterNs = -1;
        for (long now = t; now <= t + 10_000 * MS; now += 10 * MS) {
            if (!suspected(detector, now).isEmpty()) {
                suspectedAfterNs = now - t;
                break;
            }
        }
        assertTrue(suspectedAfterNs > 7600 * MS && suspectedAfterNs < 10_000 * MS,
            "a wider rhythm waits longer, still within 10 s: " + suspectedAfterNs / MS + " ms");
    }

    @Test
    void restartAllShouldTreatEveryWatchedIdAsJustHeard() {
        final PhiAccrualFailureDetector detector = defaults();
        beat(detector, 1, 0, INTERVAL_NS, 50);
        final long lastNs = beat(detector, 2, 0, INTERVAL_NS, 50);
        // this node was stopped for 20 s: both look certainly dead...
        final long resumedNs = lastNs + 20_000 * MS;
        assertEquals(Double.POSITIVE_INFINITY, detector.phi(1, resumedNs));
        // ...but it heard nobody meanwhile, so it starts again
        detector.restartAll(resumedNs);
        assertEquals(0, detector.silenceNs(1, resumedNs));
        assertEquals(List.of(), suspected(detector, resumedNs + 7600 * MS));
        detector.onHeard(1, resumedNs + 7000 * MS); // the first arrival after the restart only marks the time
        assertEquals(List.of(2), suspected(detector, resumedNs + 7630 * MS));
        assertEquals(List.of(), suspected(detector, resumedNs + 14_600 * MS));
        assertEquals(List.of(1), suspected(detector, resumedNs + 14_630 * MS));
    }

    @Test
    void severalFramesInOneDutyCycleShouldCountAsOneArrival() {
        final PhiAccrualFailureDetector detector = defaults();
        final long lastNs = beat(detector, 1, 0, INTERVAL_NS, 100);
        for (int i = 0; i < 50; i++) {
            detector.onHeard(1, lastNs); // a burst polled in one cycle: no zero intervals recorded
        }
        assertEquals(List.of(), suspected(detector, lastNs + 7600 * MS));
        assertEquals(List.of(1), suspected(detector, lastNs + 7630 * MS));
    }

    @Test
    void removeShouldStopWatching() {
        final PhiAccrualFailureDetector detector = defaults();
        detector.onHeard(3, 0);
        assertTrue(detector.isWatched(3));
        detector.remove(3);
        assertFalse(detector.isWatched(3));
        assertEquals(List.of(), suspected(detector, 60_000 * MS));
        assertEquals(0.0, detector.phi(3, 60_000 * MS));
    }

    @Test
    void aHeartbeatShouldAllocateNothing() {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final PhiAccrualFailureDetector detector = defaults();
        final PhiAccrualFailureDetector.SuspicionHandler none = (id, silenceNs, phi) -> { };
        long t = 0;
        for (int i = 0; i < 200_000; i++) { // warm up: the watches' windows, the JIT
            t += INTERVAL_NS;
            detector.onHeard(i & 7, t);
            detector.pollSuspected(t, none);
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 200_000; i++) {
            t += INTERVAL_NS;
            detector.onHeard(i & 7, t);
            detector.pollSuspected(t, none);
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, allocated + " bytes allocated by 200,000 heartbeats and polls");
    }

    @Test
    void shouldRejectSettingsThatCannotWork() {
        assertThrows(DivvyException.class, () -> new PhiAccrualFailureDetector(0.5, 0, INTERVAL_NS, INTERVAL_NS, 10));
        assertThrows(DivvyException.class, () -> new PhiAccrualFailureDetector(8, -1, INTERVAL_NS, INTERVAL_NS, 10));
        assertThrows(DivvyException.class, () -> new PhiAccrualFailureDetector(8, 0, 0, INTERVAL_NS, 10));
        assertThrows(DivvyException.class, () -> new PhiAccrualFailureDetector(8, 0, INTERVAL_NS, 0, 10));
        assertThrows(DivvyException.class, () -> new PhiAccrualFailureDetector(8, 0, INTERVAL_NS, INTERVAL_NS, 1));
    }

    @Test
    void ownPauseShouldBeAGapBetweenDutyCyclesLongerThanHalfTheAcceptablePause() {
        assertEquals(3500 * MS, OwnPauseDetector.thresholdFor(7000 * MS, INTERVAL_NS));
        final OwnPauseDetector pause = new OwnPauseDetector(3500 * MS);
        assertEquals(0, pause.onCycle(1_000 * MS), "the first cycle has nothing to compare with");
        assertEquals(0, pause.onCycle(1_100 * MS), "a deep-idle park");
        assertEquals(0, pause.onCycle(4_600 * MS), "3.5 s: not yet");
        assertEquals(0, pause.recentPauseNs(4_600 * MS, 14_000 * MS));
        assertEquals(12_300 * MS, pause.onCycle(16_900 * MS));
        assertEquals(12_300 * MS, pause.recentPauseNs(20_000 * MS, 14_000 * MS));
        assertEquals(0, pause.recentPauseNs(31_000 * MS, 14_000 * MS), "long ago");
        assertThrows(DivvyException.class, () -> new OwnPauseDetector(0));
    }
}
