package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;

/**
 * The examples launcher ({@code divvy run}, {@code divvy node}, ...) as a real JVM process, and its output
 * (standard error merged), read by a daemon thread that notes when each line arrived. The multi-process tests'
 * one way to start and watch a launcher; {@link Launchers} ends what a test started.
 */
final class LauncherProcess {
    private final Process process;
    private final StringBuilder output = new StringBuilder();
    private final List<String> lines = new ArrayList<>();
    private final List<Long> lineTimesNs = new ArrayList<>();
    private final Thread reader;

    private LauncherProcess(final Process process) {
        this.process = process;
        reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (output) {
                        output.append(line).append('\n');
                        lines.add(line);
                        lineTimesNs.add(System.nanoTime());
                        output.notifyAll();
                    }
                }
            } catch (final IOException e) {
                // The process is gone.
            }
        }, "test-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * {@code java --add-opens ... -XX:+UseSerialGC JVM_OPTIONS -cp <class path> Launcher ARGS}; without the serial
     * collector when {@code jvmOptions} choose one (the JVM refuses two).
     */
    static List<String> command(final List<String> jvmOptions, final List<String> args) {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), ChildCommand.ADD_OPENS));
        if (jvmOptions.stream().noneMatch(NodeJvmOptions::isCollector)) {
            command.add("-XX:+UseSerialGC");
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ChildCommand.MAIN_CLASS));
        command.addAll(args);
        return command;
    }

    /** The launcher with {@code args}, no extra JVM options, this process's environment. */
    static LauncherProcess start(final String... args) throws IOException {
        return start(new ProcessBuilder(command(List.of(), List.of(args))));
    }

    /** Starts {@code builder} (a {@link #command}, its environment as the test set it), output merged. */
    static LauncherProcess start(final ProcessBuilder builder) throws IOException {
        return new LauncherProcess(builder.redirectErrorStream(true).start());
    }

    Process process() {
        return process;
    }

    /** Waits for the exit, then for the last output; fails with the output if it is still running. */
    int awaitExit(final int seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("still running after " + seconds + " s:\n" + output());
        }
        reader.join(5_000);
        return process.exitValue();
    }

    void awaitLine(final String text, final int seconds) throws InterruptedException {
        awaitMatch(Pattern.compile(Pattern.quote(text)), seconds);
    }

    /** The first match of {@code pattern} in the output, waiting up to {@code seconds} for it. */
    Matcher awaitMatch(final Pattern pattern, final int seconds) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (output) {
            while (true) {
                final Matcher matcher = pattern.matcher(output);
                if (matcher.find()) {
                    return matcher;
                }
                final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (remainingMs <= 0) {
                    throw new AssertionError("no match of '" + pattern + "' after " + seconds + " s:\n" + output);
                }
                output.wait(remainingMs);
            }
        }
    }

    /** When the first line containing {@code text} was read (System.nanoTime). */
    long timeOfFirstLine(final String text) {
        synchronized (output) {
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains(text)) {
                    return lineTimesNs.get(i);
                }
            }
        }
        throw new AssertionError("no line with '" + text + "':\n" + output());
    }

    /**
     * Waits for the run's end (bounded), prints its output, and checks what every checked run ends with: exit 0, no
     * "divvy run failed", {@code answer} and a PASS line. Returns the output.
     */
    String awaitPassed(final String answer, final int seconds) throws InterruptedException {
        final int exit = awaitExit(seconds);
        final String text = output();
        System.out.println(text);
        assertFalse(text.contains("divvy run failed"), text);
        assertEquals(Launcher.EXIT_OK, exit, text);
        assertTrue(text.contains(answer) && text.contains("PASS"), text);
        return text;
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }
}
