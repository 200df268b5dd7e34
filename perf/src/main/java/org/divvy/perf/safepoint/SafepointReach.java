package org.divvy.perf.safepoint;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.bulk.SlicedCopy;

/**
 * Whether a large copy lets a safepoint in: a copier thread repeats one way of copying {@code --mb} MB
 * (default 256) while the main thread asks for a safepoint every 20 ms ({@code Thread.getAllStackTraces()}, a
 * stop-the-world operation) and times each request. The ways, each measured for {@code --seconds} (default 5)
 * per round, alternating over {@code --rounds} (default 3) rounds after a warm-up that lets C2 compile them:
 *
 * <ul>
 *   <li>{@code one-step}: one {@code UnsafeBuffer.putBytes} of the whole length (what a frame's bytes were);</li>
 *   <li>{@code counted-slices}: a counted {@code for} loop of 1 MiB {@code putBytes} (a few hundred iterations:
 *   C2 strip-mines it and polls once per thousand, so never here);</li>
 *   <li>{@code sliced}: {@link SlicedCopy#copy} (Divvy's frames, codecs and the root and value since issue 7's
 *   follow-up);</li>
 *   <li>{@code allocate}: a {@code new byte[length]}, which the JVM zeroes in one step (for reference: the
 *   allocations Divvy cannot slice).</li>
 * </ul>
 *
 * Prints per way the longest and the median request, and the copy's time. Run with
 * {@code -Xlog:safepoint:file=...} to see the JVM's own "Reaching safepoint" figures next to these. A
 * measurement, not a test: nothing is asserted.
 */
public final class SafepointReach {
    private static final long REQUEST_INTERVAL_NS = 20_000_000L;

    private enum Way { ONE_STEP, COUNTED_SLICES, SLICED, ALLOCATE }

    private static volatile Way way = Way.ONE_STEP;
    private static volatile boolean stop;
    private static volatile Object sink;

    private SafepointReach() {
    }

    public static void main(final String[] args) throws Exception {
        int mb = 256;
        int seconds = 5;
        int rounds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--mb" -> mb = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException(args[i] + ": known options --mb N, --seconds S, --rounds R");
            }
        }
        final int length = mb << 20;
        final UnsafeBuffer src = new UnsafeBuffer(new byte[length]);
        final UnsafeBuffer dst = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i < length; i += 4096) {
            src.putByte(i, (byte)i); // touch every page of both, so the copies measure copying, not faulting
            dst.putByte(i, (byte)i);
        }
        final AtomicLong copies = new AtomicLong();
        final AtomicLong copyNs = new AtomicLong();
        final Thread copier = new Thread(() -> {
            while (!stop) {
                final long start = System.nanoTime();
                switch (way) {
                    case ONE_STEP -> dst.putBytes(0, src, 0, length);
                    case COUNTED_SLICES -> {
                        for (int at = 0; at < length; at += SlicedCopy.SLICE_BYTES) {
                            dst.putBytes(at, src, at, SlicedCopy.SLICE_BYTES);
                        }
                    }
                    case SLICED -> SlicedCopy.copy(dst, 0, src, 0, length);
                    case ALLOCATE -> sink = new byte[length];
                }
                copyNs.addAndGet(System.nanoTime() - start);
                copies.incrementAndGet();
            }
        }, "copier");
        copier.setDaemon(true);
        copier.start();
        for (final Way w : Way.values()) { // warm-up: every way compiled before it is measured
            measure(w, 2, copies, copyNs);
        }
        System.out.printf(Locale.ROOT, "%d MB, %d s per way and round, %d rounds, %s%n", mb, seconds, rounds,
            System.getProperty("java.vm.version"));
        for (int round = 1; round <= rounds; round++) {
            for (final Way w : Way.values()) {
                final String line = measure(w, seconds, copies, copyNs);
                System.out.printf(Locale.ROOT, "round %d %-15s %s%n", round, w.name().toLowerCase(Locale.ROOT).replace('_', '-'), line);
            }
        }
        stop = true;
        copier.join(10_000);
    }

    private static String measure(final Way w, final int seconds, final AtomicLong copies, final AtomicLong copyNs) {
        way = w;
        sleepNs(200_000_000L); // the copy of the way before ends
        copies.set(0);
        copyNs.set(0);
        final long endNs = System.nanoTime() + seconds * 1_000_000_000L;
        final long[] samples = new long[seconds * 60];
        int count = 0;
        while (System.nanoTime() - endNs < 0 && count < samples.length) {
            final long start = System.nanoTime();
            Thread.getAllStackTraces();
            samples[count++] = System.nanoTime() - start;
            sleepNs(REQUEST_INTERVAL_NS);
        }
        java.util.Arrays.sort(samples, 0, count);
        final long n = copies.get();
        return String.format(Locale.ROOT, "safepoint requests %d: longest %.1f ms, median %.2f ms; copies %d, %.1f ms each",
            count, samples[count - 1] / 1e6, samples[count / 2] / 1e6, n, n == 0 ? 0.0 : copyNs.get() / 1e6 / n);
    }

    private static void sleepNs(final long ns) {
        final long end = System.nanoTime() + ns;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }
}
