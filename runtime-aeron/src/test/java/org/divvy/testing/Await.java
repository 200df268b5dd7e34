package org.divvy.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A test's wait for something another thread or process does, with a deadline: polls the condition every
 * millisecond (or steps the test's own nodes between polls) and fails with an {@link AssertionError} that names what
 * it waited for and how long. One deadline may cover several waits in a row:
 *
 * <pre>{@code
 * Await.within(Duration.ofSeconds(15)).until(() -> master.networkStatistics().jobsGiven() > 0, "the long child was stolen");
 *
 * final Await fifteenSeconds = Await.within(Duration.ofSeconds(15));
 * final DivvyNode owner = fifteenSeconds.value(() -> thiefOrNull(), "a part of the tree was stolen again");
 * fifteenSeconds.until(() -> leavesRun() >= 2, "leaves finish"); // what is left of the same 15 s
 * }</pre>
 *
 * Shared by the tests of every module (runtime-aeron's test-jar holds this package).
 */
public final class Await {
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Duration within;
    private final long deadlineNs;
    private final Runnable betweenPolls;

    private Await(final Duration within, final long deadlineNs, final Runnable betweenPolls) {
        this.within = within;
        this.deadlineNs = deadlineNs;
        this.betweenPolls = betweenPolls;
    }

    /** A deadline {@code within} from now. */
    public static Await within(final Duration within) {
        if (within.isNegative()) {
            throw new IllegalArgumentException("within=" + within + ", must be >= 0");
        }
        return new Await(within, System.nanoTime() + within.toNanos(), () -> LockSupport.parkNanos(POLL_NS));
    }

    /**
     * The same deadline, running {@code step} between polls instead of sleeping: for a test whose nodes run on its
     * own thread (a step should sleep briefly when it found nothing to do).
     */
    public Await stepping(final Runnable step) {
        return new Await(within, deadlineNs, Objects.requireNonNull(step, "step"));
    }

    /** Returns once {@code condition} is true; fails if it is still false at the deadline. */
    public void until(final BooleanSupplier condition, final String what) {
        until(condition, () -> what);
    }

    /** As {@link #until(BooleanSupplier, String)}; {@code what} is asked only on failure (it may dump state). */
    public void until(final BooleanSupplier condition, final Supplier<String> what) {
        value(() -> condition.getAsBoolean() ? Boolean.TRUE : null, what);
    }

    /** The first value other than null that {@code valueOrNull} returns; fails if it still returns null at the deadline. */
    public <T> T value(final Supplier<T> valueOrNull, final String what) {
        return value(valueOrNull, () -> what);
    }

    /** As {@link #value(Supplier, String)}; {@code what} is asked only on failure (it may dump state). */
    public <T> T value(final Supplier<T> valueOrNull, final Supplier<String> what) {
        while (true) {
            final T value = valueOrNull.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() - deadlineNs >= 0) {
                throw new AssertionError("timed out waiting " + describe(within) + " for: " + what.get());
            }
            betweenPolls.run();
            if (Thread.currentThread().isInterrupted()) { // the interrupt stays set for the caller
                throw new AssertionError("interrupted while waiting for: " + what.get());
            }
        }
    }

    private static String describe(final Duration duration) {
        final long ms = duration.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
