package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;
import org.divvy.StealPolicy;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MemberState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Backoff escalation in deep idle and the reset when it ends; seeded random, fake clock. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StealBackoffTest {
    private static final long MS = 1_000_000L;

    /** The cap the pauses settle at: every pause lies in [cap/2, cap]. */
    private static long maxOf(final StealBackoff backoff, final int failures) {
        long max = 0;
        for (int i = 0; i < failures; i++) {
            max = Math.max(max, backoff.nextNs());
        }
        return max;
    }

    @Test
    void awakeBackoffShouldStayUnderTheAwakeCap() {
        final StealBackoff backoff = new StealBackoff(MS, 20 * MS, 250 * MS, new Random(1));
        for (int i = 0; i < 100; i++) {
            final long ns = backoff.nextNs();
            assertTrue(ns <= 20 * MS, "pause " + ns);
        }
    }

    @Test
    void deepIdleShouldLetTheBackoffGrowToTheDeepCapAndLeavingShouldReset() {
        final StealBackoff backoff = new StealBackoff(MS, 20 * MS, 250 * MS, new Random(2));
        maxOf(backoff, 10);
        backoff.deepIdle(true);
        for (int i = 0; i < 10; i++) {
            backoff.nextNs();
        }
        for (int i = 0; i < 100; i++) {
            final long ns = backoff.nextNs();
            assertTrue(ns >= 125 * MS && ns <= 250 * MS, "settled in [cap/2, cap]: " + ns);
        }
        backoff.deepIdle(false);
        assertFalse(backoff.isDeepIdle());
        final long first = backoff.nextNs();
        assertTrue(first >= MS / 2 && first <= MS, "the minimum again: " + first);
    }

    @Test
    void shouldRejectADeepCapBelowTheAwakeCap() {
        final DivvyException e = assertThrows(DivvyException.class, () -> new StealBackoff(MS, 20 * MS, 10 * MS, new Random(3)));
        assertTrue(e.getMessage().contains("deepMaxNs=10000000"), e.getMessage());
    }

    @Test
    void leavingDeepIdleShouldLetTheStrategyAskAtOnce() {
        final Members members = new Members("A");
        members.selfId(0);
        members.update(new Member(0, "A", "127.0.0.1:40000", MemberState.ALIVE));
        members.update(new Member(1, "A", "127.0.0.1:40001", MemberState.ALIVE));
        final List<Long> sent = new ArrayList<>();
        final StealSender sender = (victim, id, wideArea) -> sent.add(id);
        final StealStrategy strategy = StealStrategy.of(StealPolicy.RS, new Random(4), MS, 20 * MS, 250 * MS, 1000 * MS);
        long now = 0;
        strategy.deepIdle(true, now);
        // Fail until the pause is long: each failure's pause is in [cap/2, cap].
        for (int i = 0; i < 12; i++) {
            assertEquals(1, strategy.onIdle(now, members, sender));
            strategy.onReply(sent.get(sent.size() - 1), false, now);
            now += 300 * MS;
        }
        assertEquals(1, strategy.onIdle(now, members, sender));
        strategy.onReply(sent.get(sent.size() - 1), false, now);
        assertEquals(0, strategy.onIdle(now + 100 * MS, members, sender), "deep pause is at least 125 ms");
        strategy.deepIdle(false, now + 100 * MS);
        assertFalse(strategy.isDeepIdle());
        assertEquals(1, strategy.onIdle(now + 100 * MS, members, sender), "woken: asks at once");
        strategy.onReply(sent.get(sent.size() - 1), false, now + 100 * MS);
        assertEquals(0, strategy.onIdle(now + 100 * MS, members, sender));
        assertEquals(1, strategy.onIdle(now + 101 * MS, members, sender), "and the backoff starts at the minimum");
    }
}
