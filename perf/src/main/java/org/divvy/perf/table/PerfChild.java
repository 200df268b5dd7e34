package org.divvy.perf.table;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.cli.ChildCommand;
import org.divvy.perf.PerfMain;

/**
 * One perf subcommand in a JVM of its own, as {@code java -jar perf/target/divvy-perf.jar ARGS} runs it: a fresh JVM
 * per row, so each row is measured as its own command measures it (no JIT profile or threads left by another row),
 * and, with a lock file, under {@code flock FILE}, so the row holds the machine's lock only while it runs. Its output
 * is copied to this JVM's, indented, as it comes. The {@code divvy.*} system properties of this JVM are passed on (the
 * subcommands start their nodes from them).
 */
final class PerfChild {
    /** How the commands are shown: the jar the README builds. */
    static final String JAR_COMMAND = "java -jar perf/target/divvy-perf.jar";

    private PerfChild() {
    }

    /** The command a reader runs to reproduce {@code args} alone (with {@code flock FILE} in front when locked). */
    static String shown(final String lockFile, final List<String> args) {
        final StringBuilder text = new StringBuilder();
        if (lockFile != null) {
            text.append("flock ").append(lockFile).append(' ');
        }
        text.append("java ");
        properties().forEach(p -> text.append(p).append(' '));
        text.append(JAR_COMMAND.substring("java ".length()));
        for (final String arg : args) {
            text.append(' ').append(arg);
        }
        return text.toString();
    }

    /**
     * How long a child took.
     *
     * @param startS seconds from its launch to its first line of output: the wait for the lock (and a JVM's start-up,
     *               well under a second); NaN if it printed nothing
     * @param totalS seconds from its launch to its end
     */
    record Timing(double startS, double totalS) {
    }

    /**
     * Runs {@code args} and waits for it; throws {@link IllegalStateException} if it exits with anything but 0 or is
     * still running after {@code deadlineS} (then it and every process below it are killed).
     */
    static Timing run(final String lockFile, final List<String> args, final double deadlineS, final PrintStream out) {
        final List<String> command = new ArrayList<>();
        if (lockFile != null) { // flock(1) runs the JVM as its child and holds the lock until it ends
            command.addAll(List.of("flock", lockFile));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), ChildCommand.ADD_OPENS));
        command.addAll(properties());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PerfMain.class.getName()));
        command.addAll(args);
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + shown(lockFile, args), e);
        }
        final long launchedNs = System.nanoTime();
        final long[] firstLineNs = {0};
        final Thread copier = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (firstLineNs[0] == 0) {
                        firstLineNs[0] = System.nanoTime(); // the subcommands print their first line at once
                    }
                    out.println("    " + line);
                }
            } catch (final IOException e) {
                // the process ended; what it printed was copied
            }
        }, "perf-child-output");
        copier.setDaemon(true);
        copier.start();
        try {
            if (!process.waitFor((long)(deadlineS * 1000), TimeUnit.MILLISECONDS)) {
                killTree(process);
                throw new IllegalStateException(shown(lockFile, args) + " did not end within " + deadlineS + " s (lock included)");
            }
            copier.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            killTree(process);
            throw new IllegalStateException("interrupted while running " + shown(lockFile, args), e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(shown(lockFile, args) + " exited with " + process.exitValue() + " (its output is above)");
        }
        return new Timing(firstLineNs[0] == 0 ? Double.NaN : (firstLineNs[0] - launchedNs) / 1e9, (System.nanoTime() - launchedNs) / 1e9);
    }

    /**
     * Kills {@code process} and everything below it. The children are stopped first (a killed parent's children are
     * no longer its descendants), and again until none is left: a row's command may start a process (flock's JVM, a
     * node of a round) between one look and the next, and one left running would hold the lock.
     */
    private static void killTree(final Process process) {
        for (int attempt = 0; attempt < 50; attempt++) {
            final List<ProcessHandle> below = process.descendants().toList();
            if (below.isEmpty()) {
                break;
            }
            below.forEach(ProcessHandle::destroyForcibly);
            try {
                Thread.sleep(20);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroyForcibly();
    }

    /** {@code -Ddivvy.<setting>=<value>} for every {@code divvy.*} system property of this JVM, sorted. */
    private static List<String> properties() {
        final Map<String, String> divvy = new TreeMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("divvy.")) {
                divvy.put(k.toString(), v.toString());
            }
        });
        return divvy.entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
    }
}
