package org.divvy.perf.uts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How much CPU the rest of the machine used while a measurement ran: the machine's busy time ({@code /proc/stat}'s
 * first line, all but idle and iowait) minus the CPU time of this JVM and every process below it
 * ({@code /proc/PID/stat}, utime + stime). Other sessions' builds outside the lock take cores a 2-process
 * measurement needs; a round in which they used more than a few percent of a core did not measure Divvy or the
 * machine. Linux only: elsewhere {@link #start()} returns null and nothing is reported.
 */
final class OtherCpu {
    private static final double TICKS_PER_S = 100; // USER_HZ, 100 on every Linux the JDK runs on

    private final long busyTicks;
    private final long ownTicks;
    private final long startNs;

    private OtherCpu(final long busyTicks, final long ownTicks, final long startNs) {
        this.busyTicks = busyTicks;
        this.ownTicks = ownTicks;
        this.startNs = startNs;
    }

    /** A snapshot now; null if {@code /proc} cannot be read. */
    static OtherCpu start() {
        final long busy = machineBusyTicks();
        return busy < 0 ? null : new OtherCpu(busy, ownTicks(), System.nanoTime());
    }

    /**
     * Since the snapshot, the CPU the rest of the machine used, in cores (0.5 = half a core on average); NaN if
     * {@code since} is null. Processes below this JVM that ended since are not counted as ours, so call it before
     * they end (or accept that their CPU shows up as other CPU, an overestimate).
     */
    static double coresSince(final OtherCpu since) {
        if (since == null) {
            return Double.NaN;
        }
        final long busy = machineBusyTicks() - since.busyTicks;
        final long own = ownTicks() - since.ownTicks;
        final double seconds = (System.nanoTime() - since.startNs) / 1e9;
        return Math.max(0, busy - own) / TICKS_PER_S / seconds;
    }

    private static long machineBusyTicks() {
        try {
            final String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (final IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of this JVM and every live process below it, in ticks. */
    private static long ownTicks() {
        final List<ProcessHandle> tree = new ArrayList<>();
        tree.add(ProcessHandle.current());
        ProcessHandle.current().descendants().forEach(tree::add);
        long ticks = 0;
        for (final ProcessHandle p : tree) {
            try {
                final String s = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
                final String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            } catch (final IOException | RuntimeException e) {
                // gone meanwhile
            }
        }
        return ticks;
    }
}
