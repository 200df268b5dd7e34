package org.divvy.perf.sharing;

import static org.divvy.PerfSharingAccess.sharing;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.StealPolicy;
import org.divvy.codegen.SharedReplica;
import org.divvy.perf.PerfNodes;
import org.divvy.perf.lanwan.PortReservation;
import org.divvy.perf.lanwan.WanTopology;
import org.divvy.perf.wan.WanRelay;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/**
 * The time a write takes to become visible on every replica of a shared object across sites (Satin++'s update
 * latency; issue 9's "write to 64 replicas ÷ the relay's one-way delay, target ≤ 2"). All nodes run in this JVM, one
 * worker each, as clients of one embedded media driver with small terms (as runtime-aeron's tests do: 64 embedded
 * drivers would not fit in 2 cores), in sites joined by a {@link WanRelay} that delays every datagram between sites;
 * combining is off. One writer (a thread of node 0's application) writes {@link WriteProbe#publish}; each replica
 * records with {@code System.nanoTime()} (one clock: one JVM) when the write was applied there, at a safe point. Per
 * write: the time until the last replica had it. Three cases:
 * <ul>
 * <li><b>busy</b> (SIMULATED work): every node runs jobs of one computation whose leaves park {@code leafUs}, so its
 * worker reaches a safe point at least once per leaf;</li>
 * <li><b>idle-in-run</b>: a run is active (node 0's root only waits) but there is nothing to steal; the writes come
 * {@code idleIntervalMs} apart, longer than it takes a node to go into deep idle, so each write must wake the nodes
 * (the agents park {@code deepIdleRunParkMs} in a run);</li>
 * <li><b>idle-between-runs</b>: the same with no run at all (the agents park {@code deepIdleParkMs}: the idle
 * cost's setting).</li>
 * </ul>
 */
final class WriteLatencyBenchmark {
    private static final int TERM_LENGTH_BYTES = 64 * 1024;
    /**
     * The shared driver's socket receive buffers (2 MiB; Aeron's default is 128 KiB): its one thread serves every node,
     * and on this machine its duty cycles stopped for up to 0.3-0.4 s (Aeron's own "work cycle exceeded" counters) while
     * the full mesh's idle streams alone sent ~30,000 heartbeats a second: 128 KiB overflowed, the loss was NAKed.
     */
    private static final int SOCKET_RCVBUF_BYTES = 2 * 1024 * 1024;
    /** As the nodes' embedded drivers (runtime-aeron's {@code AeronTransport}): a NAK retried every 10 ms, not 100 µs. */
    private static final long NAK_UNICAST_RETRY_DELAY_RATIO = 10_000;
    /** How long every node may take to get its replica before the writes start anyway (those without are left out). */
    private static final Duration SPREAD_WITHIN = Duration.ofSeconds(90);
    /** How long after the last write a replica may still be missing one before it counts as lost (best effort). */
    private static final long LATE_AFTER_NS = TimeUnit.SECONDS.toNanos(5);
    /** The busy tree's depth: large enough never to end by itself (the writer's stop ends it). */
    private static final int BUSY_DEPTH = 30;

    /** One write: when it was made, and when each node's replica had it (0: never, or no replica there). */
    record WriteSample(int n, long writtenNs, long[] seenNs) {
    }

    /** One case of one delay: its writes, and which nodes held a replica (the others are left out). */
    record CaseResult(String caseName, long delayMs, List<WriteSample> writes, boolean[] holding, int[] siteOf) {
        /** Per complete write: ms until the last holder had it. */
        double[] lastMs() {
            return writes.stream().filter(this::complete).mapToDouble(w -> (max(w) - w.writtenNs()) / 1e6).sorted().toArray();
        }

        /** Per write and holder other than the writer: ms until it had it, for holders of site {@code sameSite ? 0 : others}. */
        double[] arrivalMs(final boolean sameSite) {
            final List<Double> all = new ArrayList<>();
            for (final WriteSample w : writes) {
                for (int i = 1; i < holding.length; i++) {
                    if (holding[i] && w.seenNs()[i] != 0 && (siteOf[i] == siteOf[0]) == sameSite) {
                        all.add((w.seenNs()[i] - w.writtenNs()) / 1e6);
                    }
                }
            }
            return all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        }

        int incomplete() {
            return (int)writes.stream().filter(w -> !complete(w)).count();
        }

        int holders() {
            int count = 0;
            for (final boolean h : holding) {
                count += h ? 1 : 0;
            }
            return count;
        }

        private boolean complete(final WriteSample w) {
            for (int i = 0; i < holding.length; i++) {
                if (holding[i] && w.seenNs()[i] == 0) {
                    return false;
                }
            }
            return true;
        }

        /** Per complete write in the order written: "ms@node" of the last replica to have it. */
        List<String> lastInOrder() {
            final List<String> each = new ArrayList<>();
            for (final WriteSample w : writes) {
                if (complete(w)) {
                    int lastNode = 0;
                    for (int i = 0; i < holding.length; i++) {
                        if (holding[i] && w.seenNs()[i] > w.seenNs()[lastNode]) {
                            lastNode = i;
                        }
                    }
                    each.add(String.format(Locale.ROOT, "%.1f@%d", (max(w) - w.writtenNs()) / 1e6, lastNode));
                }
            }
            return each;
        }

        private long max(final WriteSample w) {
            long last = w.writtenNs();
            for (int i = 0; i < holding.length; i++) {
                if (holding[i]) {
                    last = Math.max(last, w.seenNs()[i]);
                }
            }
            return last;
        }
    }

    private final WanTopology topology;
    private final NodeConfig base;
    private final PrintStream log;
    private final long idlePublicationCloseMs;
    private final long busyWarmupMs;
    private final boolean diagnose;
    private final int relayNice;
    private final long imageLivenessMs;
    /** How long the idle run lasts before its first write (0: one write interval). */
    private long idleRunSettleMs;
    /** The drivers of the delay being measured (for {@code --diagnose}). */
    private MediaDriver[] drivers;
    /** The number of the next write to the run's probe (both cases write to one probe). */
    private int nextWrite;

    /**
     * @param idlePublicationCloseMs the nodes' {@code idlePublicationCloseMs} (0: never close)
     * @param busyWarmupMs           how long the busy computation runs, once every replica is held, before the first write
     * @param diagnose               print the drivers' counters and the threads' CPU and run-queue waits around each case
     * @param relayNice              the relay thread's nice value (0: left as it is)
     * @param imageLivenessMs        the drivers' image liveness timeout (0: Aeron's)
     */
    WriteLatencyBenchmark(final WanTopology topology, final NodeConfig base, final PrintStream log, final long idlePublicationCloseMs,
        final long busyWarmupMs, final boolean diagnose, final int relayNice, final long imageLivenessMs) {
        this.imageLivenessMs = imageLivenessMs;
        this.topology = topology;
        this.base = base;
        this.log = log;
        this.idlePublicationCloseMs = idlePublicationCloseMs;
        this.busyWarmupMs = busyWarmupMs;
        this.diagnose = diagnose;
        this.relayNice = relayNice;
    }

    /**
     * The idle run's first write comes {@code settleMs} after the run started (0: one write interval, as before): when
     * a run starts its idle nodes steal awake for {@code deepIdleAfterMs} from random members, and the streams that opens
     * close and leave their receivers over the next ~12 s (idle close, Aeron's linger and image liveness).
     */
    WriteLatencyBenchmark idleRunSettleMs(final long settleMs) {
        this.idleRunSettleMs = settleMs;
        return this;
    }

    /**
     * Both cases at one delay, on a fresh set of nodes and a fresh relay. {@code driverPerSite}: each site's nodes are
     * clients of a driver of their own (four drivers for four sites) instead of all of one: a driver's duty cycle does
     * per-stream work, so each cycle then walks a quarter of the streams.
     */
    List<CaseResult> run(final long delayMs, final int writes, final int leafUs, final long busyIntervalMs, final long idleIntervalMs,
        final boolean driverPerSite) {
        return run(delayMs, writes, leafUs, busyIntervalMs, idleIntervalMs, driverPerSite, false);
    }

    /**
     * As {@link #run(long, int, int, long, long, boolean)}; {@code driverPerNode}: every node on an embedded driver of
     * its own, stepped by its network agent, as a node runs alone on a machine (`divvy node`): its agent then reads its
     * own socket and a datagram ends its deep-idle park.
     */
    List<CaseResult> run(final long delayMs, final int writes, final int leafUs, final long busyIntervalMs, final long idleIntervalMs,
        final boolean driverPerSite, final boolean driverPerNode) {
        drivers = new MediaDriver[driverPerNode ? 0 : driverPerSite ? topology.sites() : 1];
        try {
            for (int d = 0; d < drivers.length; d++) {
                drivers[d] = launchDriver(imageLivenessMs);
            }
            return run(delayMs, writes, leafUs, busyIntervalMs, idleIntervalMs, drivers);
        } finally {
            for (final MediaDriver driver : drivers) {
                if (driver != null) {
                    driver.close();
                }
            }
        }
    }

    private List<CaseResult> run(final long delayMs, final int writes, final int leafUs, final long busyIntervalMs,
        final long idleIntervalMs, final MediaDriver[] drivers) {
        final NodeConfig nodeBase = base.toBuilder().networked(true).idlePublicationCloseMs(idlePublicationCloseMs).build();
        try (PortReservation ports = PortReservation.of(topology); WanRelay relay = topology.startRelay(delayMs);
             Nodes nodes = Nodes.start(topology, relay, nodeBase, drivers, ports, log)) {
            if (relayNice != 0) {
                WriteLatencyDiagnostics.reniceRelay(log, relayNice);
            }
            final List<CaseResult> results = new ArrayList<>();
            final WriteProbeShared probe = new WriteProbeShared();
            results.add(busy(nodes.all, probe, delayMs, writes, leafUs, busyIntervalMs));
            results.add(idleInRun(nodes.all, probe, delayMs, writes, idleIntervalMs, results.get(0).holding()));
            results.add(idle(nodes.all, probe, delayMs, writes, idleIntervalMs, results.get(0).holding()));
            return results;
        }
    }

    private static MediaDriver launchDriver(final long imageLivenessMs) {
        final MediaDriver.Context context = new MediaDriver.Context();
        if (imageLivenessMs > 0) {
            // a closed or silent stream's image stays at its receiver this long (Aeron: 10 s), work in every duty cycle
            context.imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(imageLivenessMs));
        }
        return MediaDriver.launchEmbedded(context
            .threadingMode(ThreadingMode.SHARED)
            // backs off to 100 us parks: the one driver thread serves 64 nodes, and a millisecond sleep would add to every hop
            .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(100)))
            // its thread for new channels' name resolution parks up to 50 ms, as in the nodes' own drivers (runtime-aeron's
            // AeronTransport): at Aeron's 1 ms the four drivers' ones woke 3,400 times a second beside 64 nodes (--diagnose)
            .asyncExecutorIdleStrategy(new BackoffIdleStrategy(1, 1, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(50)))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .publicationTermBufferLength(TERM_LENGTH_BYTES)
            .ipcTermBufferLength(TERM_LENGTH_BYTES)
            .socketRcvbufLength(SOCKET_RCVBUF_BYTES)
            .nakUnicastRetryDelayRatio(NAK_UNICAST_RETRY_DELAY_RATIO));
    }

    private CaseResult busy(final DivvyNode[] nodes, final WriteProbeShared probe, final long delayMs, final int writes, final int leafUs,
        final long intervalMs) {
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread computation = new Thread(() -> {
            try {
                nodes[0].run(() -> new BusyJobs(leafUs).work(BUSY_DEPTH, probe));
            } catch (final Throwable t) {
                failed.set(t);
            }
        }, "write-latency-busy-root");
        computation.start();
        final boolean[] holding = awaitReplicas(nodes, probe);
        if (busyWarmupMs > 0) {
            log.printf("  the busy computation runs %d s before the first write%n", busyWarmupMs / 1000);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(busyWarmupMs));
        }
        final WriteLatencyDiagnostics.Snapshot before = diagnose ? WriteLatencyDiagnostics.take(drivers, nodes) : null;
        final List<WriteSample> samples = write(nodes, probe, holding, writes, intervalMs, 0);
        if (diagnose) {
            WriteLatencyDiagnostics.print(log, "busy", before, WriteLatencyDiagnostics.take(drivers, nodes));
        }
        probe.stop();
        try {
            computation.join(TimeUnit.SECONDS.toMillis(60));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("the busy computation failed: " + failed.get(), failed.get());
        }
        if (computation.isAlive()) {
            throw new IllegalStateException("the busy computation did not end within 60 s of the stop write");
        }
        return report(new CaseResult("busy", delayMs, samples, holding, siteOf(nodes.length)), leafUs);
    }

    /**
     * Idle in a run: the same nodes, the busy case's probe's replicas still held, a run whose root (on node 0) only waits
     * until the writes are done: nothing to steal; each write must wake the nodes.
     */
    private CaseResult idleInRun(final DivvyNode[] nodes, final WriteProbeShared probe, final long delayMs, final int writes,
        final long intervalMs, final boolean[] holding) {
        final AtomicBoolean writesDone = new AtomicBoolean();
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread run = new Thread(() -> {
            try {
                nodes[0].run(() -> {
                    while (!writesDone.get()) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the root does nothing
                    }
                    return 0;
                });
            } catch (final Throwable t) {
                failed.set(t);
            }
        }, "write-latency-idle-root");
        run.start();
        final List<WriteSample> samples;
        try {
            final WriteLatencyDiagnostics.Snapshot before = diagnose ? WriteLatencyDiagnostics.take(drivers, nodes) : null;
            samples = write(nodes, probe, holding, writes, intervalMs, idleRunSettleMs > 0 ? idleRunSettleMs : intervalMs);
            if (diagnose) {
                WriteLatencyDiagnostics.print(log, "idle-in-run", before, WriteLatencyDiagnostics.take(drivers, nodes));
            }
        } finally {
            writesDone.set(true);
        }
        try {
            run.join(TimeUnit.SECONDS.toMillis(60));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("the idle run failed: " + failed.get(), failed.get());
        }
        return report(new CaseResult("idle-in-run", delayMs, samples, holding, siteOf(nodes.length)), 0);
    }

    /** Idle between runs: the same nodes, the replicas still held, no run; each write must wake them. */
    private CaseResult idle(final DivvyNode[] nodes, final WriteProbeShared probe, final long delayMs, final int writes,
        final long intervalMs, final boolean[] holding) {
        final WriteLatencyDiagnostics.Snapshot before = diagnose ? WriteLatencyDiagnostics.take(drivers, nodes) : null;
        final List<WriteSample> samples = write(nodes, probe, holding, writes, intervalMs, intervalMs);
        if (diagnose) {
            WriteLatencyDiagnostics.print(log, "idle-between-runs", before, WriteLatencyDiagnostics.take(drivers, nodes));
        }
        return report(new CaseResult("idle-between-runs", delayMs, samples, holding, siteOf(nodes.length)), 0);
    }

    /** Waits until every node holds a replica with its state; returns which do (all, unless {@link #SPREAD_WITHIN} passed). */
    private boolean[] awaitReplicas(final DivvyNode[] nodes, final WriteProbeShared probe) {
        final long deadlineNs = System.nanoTime() + SPREAD_WITHIN.toNanos();
        final boolean[] holding = new boolean[nodes.length];
        int held;
        do {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            held = 0;
            for (int i = 0; i < nodes.length; i++) {
                final WriteProbe replica = sharing(nodes[i]).replicaOf((WriteProbe)probe);
                holding[i] = replica != null && !((SharedReplica)replica).divvyReplica().isAwaitingState();
                held += holding[i] ? 1 : 0;
            }
        } while (held < nodes.length && System.nanoTime() - deadlineNs < 0);
        log.printf("  %d of %d nodes hold a replica%n", held, nodes.length);
        return holding;
    }

    /** {@code count} writes {@code intervalMs} apart (after {@code settleMs}); then what every holder saw of them. */
    private List<WriteSample> write(final DivvyNode[] nodes, final WriteProbeShared probe, final boolean[] holding, final int count,
        final long intervalMs, final long settleMs) {
        final WriteProbe[] replicas = new WriteProbe[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            replicas[i] = holding[i] ? sharing(nodes[i]).replicaOf((WriteProbe)probe) : null;
        }
        final int first = nextWrite;
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(settleMs));
        for (int k = 0; k < count; k++) {
            probe.publish(nextWrite++);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMs));
        }
        final long lateNs = System.nanoTime() + LATE_AFTER_NS;
        while (!allSeen(replicas, first, nextWrite) && System.nanoTime() - lateNs < 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        final List<WriteSample> samples = new ArrayList<>();
        for (int n = first; n < nextWrite; n++) {
            final long[] seen = new long[nodes.length];
            for (int i = 0; i < nodes.length; i++) {
                seen[i] = replicas[i] == null ? 0 : replicas[i].seenNs(n);
            }
            samples.add(new WriteSample(n, probe.seenNs(n), seen));
        }
        return samples;
    }

    private static boolean allSeen(final WriteProbe[] replicas, final int from, final int to) {
        for (final WriteProbe replica : replicas) {
            if (replica != null) {
                for (int n = from; n < to; n++) {
                    if (replica.seenNs(n) == 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private int[] siteOf(final int nodes) {
        final int[] sites = new int[nodes];
        for (int i = 0; i < nodes; i++) {
            sites[i] = topology.siteOf(i);
        }
        return sites;
    }

    private CaseResult report(final CaseResult result, final int leafUs) {
        final double[] last = result.lastMs();
        final double[] same = result.arrivalMs(true);
        final double[] other = result.arrivalMs(false);
        log.printf("%s delay=%d ms%s: %d writes to %d replicas (%d incomplete); last replica p50 %.2f ms p90 %.2f ms%s;"
                + " one replica of the writer's site p50 %.2f ms, of another site p50 %.2f ms%n",
            result.caseName(), result.delayMs(), leafUs > 0 ? " (SIMULATED leaves of " + leafUs + " us)" : "",
            result.writes().size(), result.holders(), result.incomplete(), percentile(last, 0.5), percentile(last, 0.9),
            result.delayMs() > 0 ? String.format(" = %.2f / %.2f x the delay", percentile(last, 0.5) / result.delayMs(),
                percentile(last, 0.9) / result.delayMs()) : "",
            percentile(same, 0.5), percentile(other, 0.5));
        log.printf("  %s delay=%d ms: last replica per write in the order written, ms@node: %s%n", result.caseName(),
            result.delayMs(), String.join(" ", result.lastInOrder()));
        return result;
    }

    /** The nearest-rank percentile of sorted {@code values}; NaN when empty. */
    static double percentile(final double[] values, final double p) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final int rank = (int)Math.ceil(p * values.length);
        return values[Math.max(0, Math.min(values.length - 1, rank - 1))];
    }

    /** The nodes of one topology in this JVM, clients of one driver; node 0 (site A) hosts the registry. */
    private static final class Nodes implements AutoCloseable {
        final DivvyNode[] all;

        private Nodes(final DivvyNode[] all) {
            this.all = all;
        }

        /** Node i is a client of {@code drivers[site of i]}, or of the one driver if there is one, or of its own if none. */
        static Nodes start(final WanTopology topology, final WanRelay relay, final NodeConfig base, final MediaDriver[] drivers,
            final PortReservation ports, final PrintStream log) {
            final Nodes nodes = new Nodes(new DivvyNode[topology.nodes()]);
            final long startNs = System.nanoTime();
            try {
                for (int i = 0; i < nodes.all.length; i++) {
                    final Map<String, String> routes = topology.routesOf(i, relay);
                    ports.release(i);
                    final MediaDriver driver = drivers.length == 0 ? null : drivers[drivers.length == 1 ? 0 : topology.siteOf(i)];
                    nodes.all[i] = DivvyNode.start(base.toBuilder().workers(1).networked(true)
                        .aeronDirectory(driver == null ? null : driver.aeronDirectoryName()).termLengthBytes(TERM_LENGTH_BYTES)
                        .bind(WanTopology.HOST).port(topology.port(i))
                        .join(i == 0 ? null : topology.endpoint(0))
                        .site(topology.siteName(i)).policy(StealPolicy.RS)
                        // many nodes share two cores: lenient, so a descheduled node is not declared dead
                        .heartbeatIntervalMs(500).acceptableHeartbeatPauseMs(30_000).joinTimeoutMs(60_000)
                        .sharedWriteCombiningMs(0)
                        .peerRoutes(routes)
                        .build());
                    if ((i + 1) % 8 == 0) {
                        log.printf("  %d nodes joined after %.1f s%n", i + 1, (System.nanoTime() - startNs) / 1e9);
                    }
                }
                for (final DivvyNode node : nodes.all) {
                    node.awaitMembers(nodes.all.length, Duration.ofSeconds(120));
                }
                log.printf("  every node sees %d members after %.1f s%n", nodes.all.length, (System.nanoTime() - startNs) / 1e9);
            } catch (final RuntimeException ex) {
                nodes.close();
                throw ex;
            }
            return nodes;
        }

        /** Closes the joiners in parallel (each waits briefly for its LEAVE to go out), then node 0. */
        @Override
        public void close() {
            PerfNodes.closeJoinersThenFirst(all);
        }
    }
}
