package org.divvy.perf.uts;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPU time of the JIT compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}: HotSpot's names, cut to
 * 15 characters by the kernel) of a node process and every JVM below it, from {@code /proc/PID/task/TID/schedstat}
 * (ns). A speedup row's timed run is meant to be "without JVM start-up"; C2 compiling the per-job methods during it
 * takes a worker's core in a 2-node run (and the idle second core in a 1-node run), so each timed run reports how much
 * of it there still was. Linux only: elsewhere {@link #nsOf} returns -1 and nothing is reported.
 */
final class CompilerCpu {
    private CompilerCpu() {
    }

    /** The compiler threads' CPU of {@code root} and the JVMs below it so far, in ns; -1 if {@code /proc} cannot be read. */
    static long nsOf(final ProcessHandle root) {
        final List<ProcessHandle> nodes = new ArrayList<>();
        nodes.add(root);
        root.descendants().forEach(nodes::add);
        long ns = 0;
        boolean read = false;
        for (final ProcessHandle node : nodes) {
            final Path tasks = Path.of("/proc", Long.toString(node.pid()), "task");
            try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
                for (final Path thread : threads) {
                    try {
                        if (Files.readString(thread.resolve("comm")).contains("CompilerThre")) {
                            ns += Long.parseLong(Files.readString(thread.resolve("schedstat")).trim().split(" ")[0]);
                        }
                        read = true;
                    } catch (final IOException | RuntimeException e) {
                        // the thread ended meanwhile (HotSpot stops idle compiler threads): its CPU is lost, an underestimate
                    }
                }
            } catch (final IOException | RuntimeException e) {
                // the process ended meanwhile
            }
        }
        return read ? ns : -1;
    }
}
