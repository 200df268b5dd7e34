package org.divvy.perf.sharing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.SharedWriteSink;
import org.divvy.codegen.WireWriter;

/**
 * The cost of keeping reads of a shared object atomic with respect to writes when several workers share one
 * replica (Satin's nodes were single-threaded; Divvy holds the replica's read lock around every method call and
 * the write lock around every write): {@code --threads} threads each evaluate routes on LocusRoute's cost array
 * (a route reads {@code --route-cells} cells through {@code cost(x, y)}), while writes (a wire's row added, shipped
 * through a sink that encodes and drops it) come at {@code --writes-per-s} in all. Each round times the plain class
 * ({@code Costs}, no lock, racy) and the replica ({@code CostsShared}) one after the other, alternating which goes
 * first; the table prints ns per read for both and their ratio. LocusRoute's own rate in the thesis (Table 5.5:
 * 120,000 writes in 21.5 h on one CPU) is about 1.5 writes/s; the defaults are far above it.
 *
 * <pre>
 * java -cp perf/target/divvy-perf.jar org.divvy.perf.sharing.ReplicaLockCost [--threads 2] [--rounds 5]
 *      [--routes 200000] [--route-cells 64] [--writes-per-s 1000]
 * </pre>
 */
public final class ReplicaLockCost {
    private static final int WIDTH = 512;
    private static final int HEIGHT = 512;

    private ReplicaLockCost() {
    }

    /** Encodes each write's arguments (as a node's outbox would) and drops them. */
    private static final class DroppingSink implements SharedWriteSink {
        private final WireWriter writer = new WireWriter(64);

        @Override
        public synchronized WireWriter beginShip(final ReplicaCore core, final int methodId) {
            return writer.reset();
        }

        @Override
        public void endShip(final ReplicaCore core, final WireWriter arguments, final boolean complete) {
        }
    }

    public static void main(final String[] args) throws Exception {
        int threads = 2;
        int rounds = 5;
        int routes = 200_000;
        int routeCells = 64;
        int writesPerSecond = 1000;
        for (int i = 0; i < args.length; i += 2) {
            final int value = Integer.parseInt(args[i + 1]);
            switch (args[i]) {
                case "--threads" -> threads = value;
                case "--rounds" -> rounds = value;
                case "--routes" -> routes = value;
                case "--route-cells" -> routeCells = value;
                case "--writes-per-s" -> writesPerSecond = value;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                    + "; options: --threads --rounds --routes --route-cells --writes-per-s");
            }
        }
        final Costs plain = new Costs(WIDTH, HEIGHT);
        final CostsShared shared = new CostsShared(WIDTH, HEIGHT);
        shared.divvyReplica().attach(new DroppingSink());
        System.out.printf(Locale.ROOT, "threads %d, routes %d x %d cells per thread, writes %d/s%n", threads, routes, routeCells,
            writesPerSecond);
        System.out.printf(Locale.ROOT, "%-6s %14s %14s %8s %10s%n", "round", "plain ns/read", "replica ns/read", "ratio", "writes");
        final List<Double> ratios = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            final boolean plainFirst = round % 2 == 0;
            final double[] first = measure(plainFirst ? plain : shared, threads, routes, routeCells, writesPerSecond);
            final double[] second = measure(plainFirst ? shared : plain, threads, routes, routeCells, writesPerSecond);
            final double plainNs = plainFirst ? first[0] : second[0];
            final double sharedNs = plainFirst ? second[0] : first[0];
            final long writes = (long)(plainFirst ? second[1] : first[1]);
            if (round == 0) {
                continue; // warm-up
            }
            ratios.add(sharedNs / plainNs);
            System.out.printf(Locale.ROOT, "%-6d %14.2f %14.2f %8.2f %10d%n", round, plainNs, sharedNs, sharedNs / plainNs, writes);
        }
        ratios.sort(null);
        System.out.printf(Locale.ROOT, "median ratio replica/plain: %.2f%n", ratios.get(ratios.size() / 2));
    }

    /** Runs the readers and the writer on {@code costs}; returns ns per read (wall time x threads / reads) and the writes made. */
    private static double[] measure(final Costs costs, final int threads, final int routes, final int routeCells,
        final int writesPerSecond) throws Exception {
        final CyclicBarrier start = new CyclicBarrier(threads + 1);
        final AtomicBoolean done = new AtomicBoolean();
        final long[] sink = new long[threads];
        final List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            final Thread reader = new Thread(() -> {
                await(start);
                long sum = 0;
                int x = id * 97;
                int y = id * 31;
                for (int r = 0; r < routes; r++) {
                    for (int c = 0; c < routeCells; c++) {
                        sum += costs.cost(x, y);
                        x = (x + 1) & (WIDTH - 1);
                    }
                    y = (y + 7) & (HEIGHT - 1);
                }
                sink[id] = sum;
            });
            reader.start();
            readers.add(reader);
        }
        final long[] writes = new long[1];
        final Thread writer = new Thread(() -> {
            final long intervalNs = writesPerSecond <= 0 ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(1) / writesPerSecond;
            long nextNs = System.nanoTime() + intervalNs;
            int y = 0;
            while (!done.get()) {
                final long waitNs = nextNs - System.nanoTime();
                if (waitNs > 0) {
                    LockSupport.parkNanos(Math.min(waitNs, TimeUnit.MILLISECONDS.toNanos(10)));
                    continue;
                }
                nextNs += intervalNs;
                costs.addRow(y, 0, 64, 1);
                y = (y + 1) & (HEIGHT - 1);
                writes[0]++;
            }
        });
        writer.setDaemon(true);
        writer.start();
        final long startNs = System.nanoTime();
        await(start);
        for (final Thread reader : readers) {
            reader.join();
        }
        final long elapsedNs = System.nanoTime() - startNs;
        done.set(true);
        writer.join();
        long check = 0;
        for (final long s : sink) {
            check += s;
        }
        if (check == Long.MIN_VALUE) {
            System.out.println(check); // keeps the reads from being optimised away
        }
        return new double[] {(double)elapsedNs * threads / ((double)routes * routeCells * threads), writes[0]};
    }

    private static void await(final CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
