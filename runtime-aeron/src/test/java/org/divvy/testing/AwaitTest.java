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
    void shouldShareOneDeadlineBetweenWaitsAndStepBetweenPolls() {
        final long startNs = System.nanoTime();
        final Await deadline = Await.within(Duration.ofMillis(400));
        final AtomicInteger steps = new AtomicInteger();
        deadline.stepping(steps::incrementAndGet).until(() -> steps.get() >= 10, "ten steps");
        assertEquals(10, steps.get(), "a step between polls");
        deadline.until(() -> System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(200), "200 ms");
        final long secondNs = System.nanoTime();
        assertThrows(AssertionError.class, () -> deadline.until(() -> false, "what is left of the 400 ms"));
        final long secondMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - secondNs);
        assertTrue(secondMs < 300, "the same deadline, not a new one: " + secondMs + " ms");
    }
}
