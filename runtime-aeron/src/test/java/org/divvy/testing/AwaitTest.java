package org.divvy.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void shouldReturnOnceTheConditionHolds() {
        final AtomicInteger polls = new AtomicInteger();
        Await.within(Duration.ofSeconds(5)).until(() -> polls.incrementAndGet() == 3, "the third poll");
        assertEquals(3, polls.get());
        assertEquals("third", Await.within(Duration.ofSeconds(5)).value(() -> polls.incrementAndGet() == 6 ? "third" : null,
            "the sixth poll"));
    }

    @Test
    void shouldFailAtTheDeadlineNamingWhatItWaitedForAndHowLong() {
        final long startNs = System.nanoTime();
        final AssertionError e = assertThrows(AssertionError.class,
            () -> Await.within(Duration.ofMillis(200)).until(() -> false, () -> "the impossible"));
        assertEquals("timed out waiting 200 ms for: the impossible", e.getMessage());
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(200));
        assertEquals("timed out waiting 0 s for: nothing", assertThrows(AssertionError.class,
            () -> Await.within(Duration.ZERO).value(() -> null, "nothing")).getMessage());
    }

    @Test
    void shouldShareOneDeadlineBetweenWaitsAndStepBetweenPolls() throws InterruptedException {
        final Await deadline = Await.within(Duration.ofMillis(200));
        final AtomicInteger steps = new AtomicInteger();
        deadline.stepping(steps::incrementAndGet).until(() -> steps.get() >= 10, "ten steps");
        assertEquals(10, steps.get(), "a step between polls");
        TimeUnit.MILLISECONDS.sleep(250); // the deadline passes (a sleep never ends early)
        final AtomicInteger polls = new AtomicInteger();
        assertThrows(AssertionError.class, () -> deadline.until(() -> polls.incrementAndGet() < 0, "after the deadline"));
        assertEquals(1, polls.get(), "the same deadline, already past: one look and no new wait");
    }
}
