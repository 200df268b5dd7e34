package org.divvy.perf.uts;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time of the JIT compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}: HotSpot's names, cut to
 * 15 characters by the kernel) of a node process and every JVM below it, from {@code /proc/PID/task/TID/schedstat}
 * (ns). A speedup row's timed run is meant to be "without JVM start-up"; C2 compiling the per-job methods during it
 * takes a worker's core in a 2-node run (and the idle second core in a 1-node run), so each timed run reports how much
 * of it there still was. Linux only: elsewhere {@link #threadsOf} returns null and nothing is reported.
 */
final class CompilerCpu {
    private CompilerCpu() {
    }

    /**
     * The CPU of each compiler thread of {@code root} and the JVMs below it so far, in ns, by "pid/tid"; null if
     * {@code /proc} cannot be read. Per thread, so that {@link #msBetween} counts only what a thread did between two
     * readings: HotSpot stops idle compiler threads on larger machines, and a sum over the threads alive at each
     * reading would then lose a stopped thread's whole past and could go below zero.
     */
    static Map<String, Long> threadsOf(final ProcessHandle root) {
        final List<ProcessHandle> nodes = new ArrayList<>();
        nodes.add(root);
        root.descendants().forEach(nodes::add);
        final Map<String, Long> ns = new HashMap<>();
        boolean read = false;
        for (final ProcessHandle node : nodes) {
            final Path tasks = Path.of("/proc", Long.toString(node.pid()), "task");
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
                for (final Path thread : threads) {
                    try {
                        if (Files.readString(thread.resolve("comm")).contains("CompilerThre")) {
                            ns.put(node.pid() + "/" + thread.getFileName(),
                                Long.parseLong(Files.readString(thread.resolve("schedstat")).trim().split(" ")[0]));
                        }
                        read = true;
                    } catch (final IOException | RuntimeException e) {
                        // the thread ended meanwhile (HotSpot stops idle compiler threads): what it did since is lost
                    }
                }
            } catch (final IOException | RuntimeException e) {
                // the process ended meanwhile
            }
        }
        return read ? ns : null;
    }

    /**
     * The compiler CPU between two readings of {@link #threadsOf}, in ms: each thread's growth (a thread new since
     * {@code before} counts whole); NaN if either reading failed. An underestimate when a thread ended in between.
     */
    static double msBetween(final Map<String, Long> before, final Map<String, Long> after) {
        if (before == null || after == null) {
            return Double.NaN;
        }
        long ns = 0;
        for (final Map.Entry<String, Long> thread : after.entrySet()) {
            ns += Math.max(0, thread.getValue() - before.getOrDefault(thread.getKey(), 0L));
        }
        return ns / 1e6;
    }
}
