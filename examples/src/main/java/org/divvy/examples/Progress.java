package org.divvy.examples;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * Prints "app: 4 s elapsed" every few seconds while a long run is going, from a daemon thread that
 * sleeps in between (it costs nothing measurable). Close it when the run ends.
 */
public final class Progress implements AutoCloseable {
    private final Thread thread;

    private Progress(final Thread thread) {
        this.thread = thread;
    }

    /** Starts reporting for {@code app} every {@code intervalSeconds}; 0 reports nothing. */
    public static Progress start(final String app, final int intervalSeconds, final PrintStream out) {
        if (intervalSeconds <= 0) {
            return new Progress(null);
        }
        final long startNs = System.nanoTime();
        final Thread thread = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(TimeUnit.SECONDS.toMillis(intervalSeconds));
                    out.printf("%s: %d s elapsed%n", app, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs));
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "divvy-examples-progress");
        thread.setDaemon(true);
        thread.start();
        return new Progress(thread);
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }
}
