package org.divvy.perf.uts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.cli.ChildCommand;
import org.divvy.examples.uts.Counts;

/**
 * One {@code divvy run ... uts ...} as a child process of this JVM (node 0 started as {@code bin/divvy} starts it,
 * its children by {@code divvy run} itself), with the resident memory of every node process sampled from
 * {@code /proc/PID/status} every {@value #SAMPLE_MS} ms: {@code VmHWM}, the kernel's own peak (so a peak between
 * samples is not missed, only the last few ms of a process), and {@code VmRSS} when all nodes have joined and
 * wait for the run (idle).
 */
final class NodeRun {
    /** The examples launcher: {@code divvy} itself. */
    static final String LAUNCHER = "org.divvy.examples.Launcher";
    /**
     * Node 0's JVM options as {@code bin/divvy} gives them when {@code DIVVY_JAVA_OPTS} names none: G1 when the JVM's
     * default maximum heap, a quarter of the machine's memory, is over 1 GiB, else serial; a 16 MiB start.
     */
    static final List<String> NODE_ZERO_JVM_OPTIONS =
        List.of(quarterOfMemoryBytes() > (1L << 30) ? "-XX:+UseG1GC" : "-XX:+UseSerialGC", "-Xms16m");
    static final long SAMPLE_MS = 20;
    private static final Pattern WALL = Pattern.compile("^wall time: ([0-9.]+) s");
    private static final Pattern FIRST_WARMUP = Pattern.compile("^divvy run: warm-up run 1 of [0-9]+: [A-Z]+, wall time ([0-9.]+) s");
    private static final Pattern RUN = Pattern.compile("^run ([0-9.]+) ms:");
    private static final Pattern COUNTS = Pattern.compile(": ([0-9]+) nodes, ([0-9]+) leaves, depth ([0-9]+)");
    private static final Pattern JOINED = Pattern.compile("^divvy run: all [0-9]+ nodes joined");
    private static final Pattern LAST_WARMUP = Pattern.compile("^divvy run: warm-up run ([0-9]+) of \\1:");

    /**
     * What a run gave.
     *
     * @param wallS      node 0's wall time of the reported run: from submitting the root to the answer (no JVM
     *                   start-up, no joining; after the warm-up runs, if {@code divvy run --warmup-runs} asked for any)
     * @param firstWallS node 0's wall time of the first warm-up run (the JIT compilers work during it), or NaN
     *                   without one
     * @param masterRunMs the master's run of the root, from its statistics
     * @param peakRssMiB per node process (node 0 first, then its children as they appeared): its VmHWM
     * @param idleRssMiB per node process: VmRSS once all nodes joined, before the run
     * @param otherCores the CPU that processes other than this JVM and its node processes used during the reported run
     *                   (from the last warm-up run's line to the wall time's), in cores; NaN if not measured
     * @param compilerMs the CPU the node processes' JIT compiler threads used over the same span, in ms; NaN if not
     *                   measured
     */
    record Result(String command, Counts counts, double wallS, double firstWallS, double masterRunMs, List<Double> peakRssMiB,
        List<Double> idleRssMiB, double otherCores, double compilerMs) {
    }

    private NodeRun() {
    }

    /** A quarter of {@code /proc/meminfo}'s MemTotal, as {@code bin/divvy} reads it; 0 if it cannot be read. */
    private static long quarterOfMemoryBytes() {
        try {
            for (final String line : java.nio.file.Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024 / 4;
                }
            }
        } catch (final java.io.IOException | NumberFormatException e) {
            // not Linux: bin/divvy then gives serial too
        }
        return 0;
    }

    static Result run(final List<String> divvyArgs, final double deadlineS) {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), ChildCommand.ADD_OPENS));
        command.addAll(NODE_ZERO_JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LAUNCHER));
        command.addAll(divvyArgs);
        final String shown = "bin/divvy " + String.join(" ", divvyArgs);
        final Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + shown, e);
        }
        final List<String> lines = new ArrayList<>();
        final boolean[] joined = {false};
        // the reported run: from the last warm-up run's end (or the start, without one) to its wall time line
        final OtherCpu[] runStart = {OtherCpu.start()};
        final double[] otherCores = {Double.NaN};
        final AtomicReference<Map<String, Long>> compilerStart = new AtomicReference<>(CompilerCpu.threadsOf(process.toHandle()));
        final double[] compilerMs = {Double.NaN};
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (LAST_WARMUP.matcher(line).find()) {
                        runStart[0] = OtherCpu.start();
                        compilerStart.set(CompilerCpu.threadsOf(process.toHandle()));
                    } else if (WALL.matcher(line).find() && Double.isNaN(otherCores[0])) {
                        otherCores[0] = OtherCpu.coresSince(runStart[0]); // before the nodes end: their CPU is ours
                        compilerMs[0] = CompilerCpu.msBetween(compilerStart.get(), CompilerCpu.threadsOf(process.toHandle()));
                    }
                    synchronized (lines) {
                        lines.add(line);
                        joined[0] |= JOINED.matcher(line).find();
                    }
                }
            } catch (final IOException e) {
                // the process ended; what was read is kept
            }
        }, "node-run-output");
        reader.setDaemon(true);
        reader.start();
        final Map<Long, double[]> memory = new LinkedHashMap<>(); // pid -> {peak MiB, idle MiB}
        final long deadlineNs = System.nanoTime() + (long)(deadlineS * 1e9);
        try {
            while (process.isAlive()) {
                final boolean idleNow;
                synchronized (lines) {
                    idleNow = joined[0];
                }
                sample(process.toHandle(), memory, idleNow);
                if (System.nanoTime() - deadlineNs > 0) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    throw new IllegalStateException(shown + " did not end within " + deadlineS + " s; output:\n" + text(lines));
                }
                process.waitFor(SAMPLE_MS, TimeUnit.MILLISECONDS);
            }
            reader.join(5_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("interrupted while running " + shown, e);
        }
        synchronized (lines) {
            if (process.exitValue() != 0) {
                throw new IllegalStateException(shown + " exited with " + process.exitValue() + "; output:\n" + text(lines));
            }
            final Matcher counts = find(COUNTS, lines, shown);
            final List<Double> peaks = new ArrayList<>();
            final List<Double> idles = new ArrayList<>();
            for (final double[] m : memory.values()) {
                peaks.add(m[0]);
                idles.add(m[1]);
            }
            final double wallS = Double.parseDouble(find(WALL, lines, shown).group(1));
            final Matcher firstWarmup = findOrNull(FIRST_WARMUP, lines);
            return new Result(shown,
                new Counts(Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2)), Integer.parseInt(counts.group(3))),
                wallS, firstWarmup == null ? Double.NaN : Double.parseDouble(firstWarmup.group(1)),
                Double.parseDouble(find(RUN, lines, shown).group(1)), peaks, idles, otherCores[0], compilerMs[0]);
        }
    }

    /** Reads VmHWM (and, the first time {@code idle} holds, VmRSS) of node 0 and every JVM below it. */
    private static void sample(final ProcessHandle root, final Map<Long, double[]> memory, final boolean idle) {
        final List<ProcessHandle> nodes = new ArrayList<>();
        nodes.add(root);
        root.descendants().filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false)).forEach(nodes::add);
        for (final ProcessHandle node : nodes) {
            final double[] status = status(node.pid());
            if (status == null) {
                continue; // gone between the listing and the read
            }
            final double[] m = memory.computeIfAbsent(node.pid(), pid -> new double[] {0, Double.NaN});
            m[0] = Math.max(m[0], status[0]);
            if (idle && Double.isNaN(m[1])) {
                m[1] = status[1];
            }
        }
    }

    /** {VmHWM, VmRSS} of {@code pid} in MiB; null if it is gone. */
    private static double[] status(final long pid) {
        try {
            double hwm = Double.NaN;
            double rss = Double.NaN;
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    hwm = kib(line) / 1024.0;
                } else if (line.startsWith("VmRSS:")) {
                    rss = kib(line) / 1024.0;
                }
            }
            return Double.isNaN(hwm) ? null : new double[] {hwm, rss};
        } catch (final NoSuchFileException e) {
            return null;
        } catch (final IOException e) {
            return null; // a process that ended while being read
        }
    }

    private static long kib(final String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }

    private static Matcher find(final Pattern pattern, final List<String> lines, final String shown) {
        final Matcher m = findOrNull(pattern, lines);
        if (m == null) {
            throw new IllegalStateException(shown + " printed no line matching " + pattern + "; output:\n" + text(lines));
        }
        return m;
    }

    private static Matcher findOrNull(final Pattern pattern, final List<String> lines) {
        for (final String line : lines) {
            final Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
        return null;
    }

    private static String text(final List<String> lines) {
        return String.join("\n", lines);
    }
}
