package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Deep idle entry and exit, and the agent idle strategy's decisions, with a fake clock. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DeepIdleTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldEnterDeepIdleOnlyAfterTheQuietThreshold() {
        final DeepIdle idle = new DeepIdle(1000 * MS);
        assertFalse(idle.onQuiet(5_000 * MS), "the first quiet cycle starts the clock");
        assertFalse(idle.onQuiet(5_999 * MS));
        assertTrue(idle.onQuiet(6_000 * MS));
        assertTrue(idle.isDeep());
        assertTrue(idle.onQuiet(9_000 * MS), "stays deep while quiet");
        assertEquals(1, idle.entries());
    }

    @Test
    void activityShouldEndDeepIdleAtOnceAndRestartTheQuietClock() {
        final DeepIdle idle = new DeepIdle(1000 * MS);
        idle.onActivity(0);
        assertTrue(idle.onQuiet(1000 * MS));
        assertTrue(idle.onActivity(1500 * MS), "reports that it was deep");
        assertFalse(idle.isDeep());
        assertFalse(idle.onActivity(1600 * MS), "no longer deep");
        assertFalse(idle.onQuiet(2599 * MS), "quiet counts from the last activity");
        assertTrue(idle.onQuiet(2600 * MS));
        assertEquals(2, idle.entries());
    }

    @Test
    void shouldRejectNonPositiveThreshold() {
        final DivvyException e = assertThrows(DivvyException.class, () -> new DeepIdle(0));
        assertTrue(e.getMessage().contains("enterAfterNs=0"), e.getMessage());
    }

    @Test
    void awakeStrategyShouldSpinYieldThenParkDoublingToTheCap() {
        final DeepIdle idle = new DeepIdle(1000 * MS);
        final NodeIdleStrategy strategy = new NodeIdleStrategy(idle, MS, 50 * MS);
        for (int i = 0; i < NodeIdleStrategy.MAX_SPINS; i++) {
            assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(0));
        }
        for (int i = 0; i < NodeIdleStrategy.MAX_YIELDS; i++) {
            assertEquals(NodeIdleStrategy.YIELD, strategy.parkNsFor(0));
        }
        long expected = NodeIdleStrategy.MIN_PARK_NS;
        for (int i = 0; i < 30; i++) {
            assertEquals(Math.min(MS, expected), strategy.parkNsFor(0));
            expected *= 2;
        }
        assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(3), "work resets the backoff");
        assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(0));
    }

    @Test
    void aStoppingAgentShouldNotParkAgainEvenInDeepIdle() throws InterruptedException {
        // As NetworkService.close does: stopParking, then wake. A deep park of ten minutes must not hold the stop back
        // (the class's timeout would catch a park that ran its course).
        final DeepIdle idle = new DeepIdle(1);
        final NodeIdleStrategy strategy = new NodeIdleStrategy(idle, MS, TimeUnit.MINUTES.toNanos(10));
        idle.onActivity(0);
        idle.onQuiet(1);
        assertTrue(idle.isDeep());
        final Thread agent = new Thread(() -> {
            strategy.idle(0); // the deep park, until woken
            strategy.idle(0); // after the stop: no park at all
        }, "agent");
        agent.start();
        Thread.sleep(100); // the agent is (very likely) in its park; if not, the stop is seen before it parks
        strategy.stopParking();
        LockSupport.unpark(agent);
        agent.join();
    }

    @Test
    void deepStrategyShouldParkTheDeepParkWhenIdleDrainWorkAtOnceAndStartHotWhenWoken() {
        final DeepIdle idle = new DeepIdle(1000 * MS);
        final NodeIdleStrategy strategy = new NodeIdleStrategy(idle, MS, 50 * MS);
        idle.onActivity(0);
        idle.onQuiet(1000 * MS);
        assertEquals(50 * MS, strategy.parkNsFor(0));
        assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(2), "a cycle that did work runs again at once");
        assertEquals(50 * MS, strategy.parkNsFor(0), "a heartbeat or failed steal does not end deep idle");
        idle.onActivity(1100 * MS);
        assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(0), "awake again: backoff from the start");
    }

    @Test
    void shouldRejectADeepParkShorterThanTheAwakeCap() {
        final DivvyException e = assertThrows(DivvyException.class, () -> new NodeIdleStrategy(new DeepIdle(1), 2 * MS, MS));
        assertTrue(e.getMessage().contains("deepParkNs=1000000"), e.getMessage());
    }

    @Test
    void deepStrategyShouldParkTheRunParkWhileARunIsActiveAndTheDeepParkBetweenRuns() {
        final DeepIdle idle = new DeepIdle(1000 * MS);
        final NodeIdleStrategy strategy = new NodeIdleStrategy(idle, MS, 100 * MS, 2 * MS);
        idle.onActivity(0);
        idle.onQuiet(1000 * MS);
        assertEquals(100 * MS, strategy.parkNsFor(0), "no run: the deep park");
        idle.inRun(true);
        assertTrue(idle.isDeep(), "a run does not end deep idle by itself");
        assertEquals(2 * MS, strategy.parkNsFor(0), "in a run: the short park");
        assertEquals(NodeIdleStrategy.SPIN, strategy.parkNsFor(1));
        idle.inRun(false);
        assertEquals(100 * MS, strategy.parkNsFor(0), "the run ended: the deep park again");
    }

    @Test
    void shouldRejectARunParkOutsideTheAwakeCapAndTheDeepPark() {
        final DivvyException longer = assertThrows(DivvyException.class,
            () -> new NodeIdleStrategy(new DeepIdle(1), MS, 10 * MS, 20 * MS));
        assertTrue(longer.getMessage().contains("runParkNs=20000000"), longer.getMessage());
        final DivvyException shorter = assertThrows(DivvyException.class,
            () -> new NodeIdleStrategy(new DeepIdle(1), 2 * MS, 10 * MS, MS));
        assertTrue(shorter.getMessage().contains("runParkNs=1000000"), shorter.getMessage());
    }
}
