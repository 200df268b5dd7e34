package org.divvy.examples.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Copies a child process's output to ours line by line, each line prefixed (e.g. {@code "[node 2] "}),
 * on a daemon thread that ends when the child closes its output. Whole lines are printed under the
 * target's lock, so the lines of several children interleave but never mix. A listener sees each line
 * (unprefixed) after it was printed: how {@link ChildNodes} learns that a late joiner has joined.
 */
final class OutputPump {
    private final Thread thread;

    private OutputPump(final Thread thread) {
        this.thread = thread;
    }

    static OutputPump start(final InputStream in, final String prefix, final PrintStream out) {
        return start(in, prefix, out, line -> { });
    }

    /** As {@link #start(InputStream, String, PrintStream)}, giving every line to {@code onLine} once printed. */
    static OutputPump start(final InputStream in, final String prefix, final PrintStream out,
        final Consumer<String> onLine) {
        final Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (out) {
                        out.println(prefix + line);
                    }
                    onLine.accept(line);
                }
            } catch (final IOException e) {
                // The child's pipe broke: the child is gone and its exit is reported elsewhere.
            }
        }, "divvy-output-" + prefix.trim());
        thread.setDaemon(true);
        thread.start();
        return new OutputPump(thread);
    }

    /** Waits up to {@code timeoutMs} for the child's last line to be copied. */
    void awaitEnd(final long timeoutMs) {
        try {
            thread.join(timeoutMs);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
