package org.divvy.perf.failure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.NodeConfig;
import org.divvy.perf.BenchmarkSecret;

/**
 * How long a distributed run takes to notice a node that was killed: starts {@code divvy run} (fib with
 * 20 ms leaves on two single-worker nodes, about 10 s), SIGKILLs the other node 2 s into the run and
 * measures, from the kill, when the run process first names it and when it prints an error, if ever (the run goes on
 * without the node since issue 8, so -1 there is right: it did not fail), and whether it still passed. Two kinds of
 * node: {@code child}, a child JVM the run started (it notices the exit itself), and {@code remote}, a
 * {@code divvy node --join} process the run did not start (only the failure detector can tell). Prints one
 * row per repetition, then min / median / max. Linux only; starts and kills only its own processes.
 *
 * <pre>
 * java -cp perf/target/divvy-perf.jar org.divvy.perf.failure.KillDetection [child|remote] [repetitions]
 * </pre>
 */
public final class KillDetection {
    private static final List<String> FIB = List.of("--workers", "1", "fib", "-n", "29", "--threshold", "16",
        "--simulate-leaf-us", "20000", "--progress-seconds", "0");
    private static final Pattern NODE0_ENDPOINT = Pattern.compile("local node 0 \\(this process[^)]*\\) at (\\S+?),");
    /** No such line: not a {@link System#nanoTime()} value in practice. */
    private static final long NEVER = Long.MIN_VALUE;
    private static final Pattern NODE_JOINED = Pattern.compile("node id (\\d+) \\((\\S+), site (\\S+),");

    private KillDetection() {
    }

    public static void main(final String[] args) throws Exception {
        final boolean remote = args.length > 0 && "remote".equals(args[0]);
        final int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.exit(run(remote, repetitions, System.out));
    }

    static int run(final boolean remote, final int repetitions, final PrintStream out) throws Exception {
        out.println("kill detection, " + (remote ? "remote node (divvy node --join)" : "child node of divvy run")
            + ", " + repetitions + " repetitions");
        out.println("rep  named_ms  error_ms  passed");
        final List<Long> named = new ArrayList<>();
        final List<Long> errors = new ArrayList<>();
        for (int rep = 1; rep <= repetitions; rep++) {
            final long[] times = remote ? remoteOnce() : childOnce();
            named.add(times[0]);
            errors.add(times[1]);
            out.printf("%3d  %8d  %8d  %s%n", rep, times[0], times[1], times[2] == 1 ? "yes" : "no");
        }
        out.println("named: " + summary(named) + "; error: " + summary(errors));
        return 0;
    }

    private static long[] childOnce() throws Exception {
        final Launched run = Launched.start(concat(List.of("run", "--nodes", "2"), FIB));
        try {
            run.await(Pattern.compile("nodes joined"), 60);
            Thread.sleep(2_000);
            final ProcessHandle child = run.process.children().findFirst().orElseThrow();
            child.destroyForcibly();
            final long killedNs = System.nanoTime();
            // divvy run: node 1 (pid 123, site default, node id 1) died with SIGKILL (exit 137); the run goes on, ...
            final Pattern died = Pattern.compile("\\(pid " + child.pid() + ", [^)]*\\) died");
            return new long[] {since(run.timeOf(died), killedNs), since(run.timeOf("divvy run failed"), killedNs),
                passed(run)};
        } finally {
            run.destroy();
        }
    }

    private static long[] remoteOnce() throws Exception {
        final Launched run = Launched.start(concat(List.of("run", "--nodes", "1", "--await", "1"), FIB));
        Launched node = null;
        try {
            final String registry = run.await(NODE0_ENDPOINT, 60).group(1);
            node = Launched.start(List.of("node", "--join", registry, "--workers", "1"));
            final Matcher joined = node.await(NODE_JOINED, 60);
            final String name = "node " + joined.group(1) + " (site " + joined.group(3) + ", " + joined.group(2) + ")";
            run.await(Pattern.compile("nodes joined"), 60);
            Thread.sleep(2_000);
            node.process.destroyForcibly();
            final long killedNs = System.nanoTime();
            return new long[] {since(run.timeOf(name + " was declared dead"), killedNs),
                since(run.timeOf("divvy run failed"), killedNs), passed(run)};
        } finally {
            run.destroy();
            if (node != null) {
                node.destroy();
            }
        }
    }

    /** 1 if the run printed its PASS line, else 0. */
    private static long passed(final Launched run) throws InterruptedException {
        return run.timeOf(Pattern.compile("^PASS")) == NEVER ? 0 : 1;
    }

    /** Milliseconds from {@code startNs} to {@code atNs}, or -1 when it never came. */
    private static long since(final long atNs, final long startNs) {
        return atNs == NEVER ? -1 : TimeUnit.NANOSECONDS.toMillis(atNs - startNs);
    }

    private static String summary(final List<Long> values) {
        final List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        final int n = sorted.size();
        final double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
        return "min " + sorted.get(0) + " ms, median " + Math.round(median) + " ms, max " + sorted.get(n - 1) + " ms";
    }

    private static List<String> concat(final List<String> a, final List<String> b) {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** A launcher process of this class path and its output lines with the time each was read. */
    private static final class Launched {
        final Process process;
        private final List<String> lines = new ArrayList<>();
        private final List<Long> timesNs = new ArrayList<>();
        private final Thread reader;

        private Launched(final Process process) {
            this.process = process;
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (lines) {
                            lines.add(line);
                            timesNs.add(System.nanoTime());
                            lines.notifyAll();
                        }
                    }
                } catch (final IOException e) {
                    // the process is gone
                }
            }, "kill-detection-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Launched start(final List<String> launcherArgs) throws IOException {
            final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), "org.divvy.examples.Launcher"));
            command.addAll(launcherArgs);
            // one secret for the run and the node that joins it from outside
            return new Launched(BenchmarkSecret.export(NodeConfig.builder().networked(true).build(), new ProcessBuilder(command))
                .redirectErrorStream(true).start());
        }

        Matcher await(final Pattern pattern, final int seconds) throws InterruptedException {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            synchronized (lines) {
                int seen = 0;
                while (true) {
                    for (; seen < lines.size(); seen++) {
                        final Matcher matcher = pattern.matcher(lines.get(seen));
                        if (matcher.find()) {
                            return matcher;
                        }
                    }
                    final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                    if (leftMs <= 0) {
                        throw new IllegalStateException("no '" + pattern + "' within " + seconds + " s:\n"
                            + String.join("\n", lines));
                    }
                    lines.wait(leftMs);
                }
            }
        }

        /** When the first line containing {@code text} was read, once the process has ended; {@link #NEVER} if none. */
        long timeOf(final String text) throws InterruptedException {
            return timeOf(Pattern.compile(Pattern.quote(text)));
        }

        /** When the first line in which {@code pattern} is found was read, once the process has ended; {@link #NEVER} if none. */
        long timeOf(final Pattern pattern) throws InterruptedException {
            process.waitFor(60, TimeUnit.SECONDS);
            reader.join(5_000);
            synchronized (lines) {
                for (int i = 0; i < lines.size(); i++) {
                    if (pattern.matcher(lines.get(i)).find()) {
                        return timesNs.get(i);
                    }
                }
            }
            return NEVER;
        }

        void destroy() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
