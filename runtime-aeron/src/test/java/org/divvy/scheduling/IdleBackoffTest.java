package org.divvy.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class IdleBackoffTest {
    @Test
    void shouldSpinThenYieldThenParkWithDoublingTimeThenParkDeep() {
        final IdleBackoff backoff = new IdleBackoff(2, 1, 1_000, 4_000, 50_000);
        assertEquals(IdleBackoff.SPIN, backoff.next());
        assertEquals(IdleBackoff.SPIN, backoff.next());
        assertEquals(IdleBackoff.YIELD, backoff.next());
        assertEquals(IdleBackoff.PARK, backoff.next());
        assertEquals(1_000, backoff.parkNs());
        assertEquals(2_000, backoff.parkNs());
        for (int i = 0; i < IdleBackoff.DEEP_IDLE_AFTER_MAX_PARKS; i++) {
            assertEquals(4_000, backoff.parkNs());
        }
        assertEquals(50_000, backoff.parkNs());
        assertEquals(IdleBackoff.PARK, backoff.next());
    }

    @Test
    void shouldStartOverAfterReset() {
        final IdleBackoff backoff = new IdleBackoff(1, 0, 1_000, 8_000, 8_000);
        backoff.next();
        backoff.next();
        backoff.parkNs();
        backoff.parkNs();
        backoff.reset();
        assertEquals(IdleBackoff.SPIN, backoff.next());
        assertEquals(IdleBackoff.PARK, backoff.next());
        assertEquals(1_000, backoff.parkNs());
    }
}
