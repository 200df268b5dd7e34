package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.divvy.DivvyException;

/**
 * Blocking calls with a bound, so a command never hangs on a node that died: the call runs on a daemon
 * thread and the caller waits for it, for a child's death (while nodes join: once the run started, a death
 * is survived), or for the deadline, whichever comes first.
 * A call that loses the race keeps its daemon thread until it returns or the JVM exits.
 */
final class Deadlines {
    /** No deadline. */
    static final long NONE = 0;

    private Deadlines() {
    }

    /**
     * Runs {@code call} and returns its value, unless {@code death} completes first (throws
     * {@link DivvyException} with its message) or {@code timeoutMs} (if > 0) passes (throws with
     * {@code timeoutMessage}). The call's own unchecked exception is rethrown as it is.
     */
    static <T> T race(final String name, final Callable<T> call, final CompletableFuture<String> death,
        final long timeoutMs, final String timeoutMessage) {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread thread = new Thread(() -> {
            try {
                result.complete(call.call());
            } catch (final Throwable t) {
                result.completeExceptionally(t);
            }
        }, "divvy-cli-" + name);
        thread.setDaemon(true);
        thread.start();
        final CompletableFuture<Object> first = CompletableFuture.anyOf(result, death);
        try {
            if (timeoutMs > 0) {
                first.get(timeoutMs, TimeUnit.MILLISECONDS);
            } else {
                first.get();
            }
        } catch (final TimeoutException e) {
            throw new DivvyException(timeoutMessage);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DivvyException(name + " interrupted");
        } catch (final ExecutionException | CompletionException e) {
            // The call failed: reported below, from its own future.
        }
        if (death.isDone() && !result.isDone()) {
            throw new DivvyException(death.join());
        }
        try {
            return result.join();
        } catch (final CompletionException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new DivvyException(name + " failed: " + cause, cause);
        }
    }

    /**
     * Runs {@code call} and returns its value, unless {@code timeoutMs} (if > 0) passes first (throws
     * {@link DivvyException} with {@code timeoutMessage}): {@link #race} without a death to race.
     */
    static <T> T within(final String name, final Callable<T> call, final long timeoutMs, final String timeoutMessage) {
        return race(name, call, new CompletableFuture<>(), timeoutMs, timeoutMessage);
    }

    /**
     * Runs {@code action} for at most {@code timeoutMs}; returns whether it finished (false: still
     * running). An exception it throws is reported on {@code err}, naming {@code what}.
     */
    static boolean bounded(final String what, final Runnable action, final long timeoutMs, final PrintStream err) {
        final Thread thread = new Thread(() -> {
            try {
                action.run();
            } catch (final RuntimeException e) {
                err.println(what + " failed: " + e.getMessage());
            }
        }, "divvy-cli-" + what.replace(' ', '-'));
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join(timeoutMs);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
