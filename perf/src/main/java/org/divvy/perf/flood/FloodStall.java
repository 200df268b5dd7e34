package org.divvy.perf.flood;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.status.CountersReader;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.agent.Duty;
import org.divvy.agent.ErrorLog;
import org.divvy.membership.MembershipListener;
import org.divvy.membership.MembershipMessages;
import org.divvy.node.ProtocolPeer;
import org.divvy.transport.ReceiveGuardCounters;
import org.divvy.transport.TrafficCounters;
import org.divvy.perf.BenchmarkSecret;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.driver.Configuration;

/**
 * How long a flood of Aeron-shaped garbage stalls a node's network agent. A registry node is started, and a
 * member (a {@link ProtocolPeer}: the same transport, embedded driver and agent as a node, without jobs)
 * joins it; then {@code --datagrams} datagrams of {@link AeronGarbage} are sent to the member's UDP port as
 * fast as they go. A duty on the member's agent records the longest gap between two duty cycles and between
 * two heartbeats it sent, from the flood's start until {@code --after-s} seconds after its end; it prints
 * those, whether the registry declared the member dead, the most images the member's driver held at once
 * (sampled every 20 ms), what the member's error log and standard error printed, the distinct errors in the
 * driver's CnC error log, and the member's counters.
 *
 * <pre>
 * java -cp perf/target/divvy-perf.jar org.divvy.perf.flood.FloodStall [--datagrams 100000] [--seed 1]
 *      [--settle-s 2] [--after-s 3]
 * </pre>
 */
public final class FloodStall {
    private static final long SAMPLE_MS = 20;

    private FloodStall() {
    }

    /** What one flood did to the member. */
    public record Result(long datagramsSent, long sendMs, long longestCycleGapMs, long longestHeartbeatGapMs,
        boolean registryLost, int mostImages, long errorLogLines, long errorLogTraces, long stderrLines,
        int cncDistinctErrors, ReceiveGuardCounters guard, String counters) {
    }

    public static void main(final String[] args) throws Exception {
        long datagrams = 100_000;
        long seed = 1;
        long settleS = 2;
        long afterS = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--datagrams" -> datagrams = Long.parseLong(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--settle-s" -> settleS = Long.parseLong(args[++i]);
                case "--after-s" -> afterS = Long.parseLong(args[++i]);
                default -> {
                    System.err.println("FloodStall: unknown option " + args[i] +
                        "; options: --datagrams N --seed S --settle-s S --after-s S");
                    System.exit(2);
                }
            }
        }
        final Result r = run(datagrams, seed, settleS, afterS, NodeConfig.builder().build().maxInboundStreams());
        System.out.printf(Locale.ROOT, "datagrams sent           %d in %d ms%n", r.datagramsSent(), r.sendMs());
        System.out.printf(Locale.ROOT, "longest agent cycle gap  %d ms%n", r.longestCycleGapMs());
        System.out.printf(Locale.ROOT, "longest heartbeat gap    %d ms (interval %d ms)%n", r.longestHeartbeatGapMs(),
            NodeConfig.builder().build().heartbeatIntervalMs());
        System.out.printf(Locale.ROOT, "declared dead            %s%n", r.registryLost() ? "YES" : "no");
        System.out.printf(Locale.ROOT, "most images at once      %d%n", r.mostImages());
        System.out.printf(Locale.ROOT, "error log                %d lines, %d stack traces%n", r.errorLogLines(),
            r.errorLogTraces());
        System.out.printf(Locale.ROOT, "standard error           %d lines%n", r.stderrLines());
        System.out.printf(Locale.ROOT, "driver CnC error log     %d distinct errors%n", r.cncDistinctErrors());
        System.out.printf(Locale.ROOT, "member's counters        %s%n", r.counters());
        System.exit(0);
    }

    /**
     * Floods a fresh member (receiving at most {@code maxInboundStreams} streams) of a fresh registry; both
     * are closed before it returns.
     */
    public static Result run(final long datagrams, final long seed, final long settleS, final long afterS,
        final int maxInboundStreams) throws Exception {
        final PrintStream originalErr = System.err;
        final LineCounter stderr = new LineCounter(originalErr);
        // The driver's fallback logger is System.err as it is when the driver starts: count what it prints.
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        final AtomicLong logLines = new AtomicLong();
        final AtomicLong logTraces = new AtomicLong();
        final ErrorLog errorLog = new ErrorLog((line, first) -> {
            if (logLines.incrementAndGet() <= 20) {
                originalErr.println("[member] " + line + (first == null ? "" : " (" + first + ")"));
            }
            if (first != null && first.getStackTrace().length > 0) {
                logTraces.incrementAndGet();
            }
        });
        final AtomicBoolean registryLost = new AtomicBoolean();
        final AtomicBoolean joined = new AtomicBoolean();
        try (DivvyNode registry = DivvyNode.start(BenchmarkSecret.withSecret(NodeConfig.builder().networked(true).workers(1)
            .build()))) {
            final NodeConfig memberConfig = BenchmarkSecret.withSecret(NodeConfig.builder().networked(true).workers(1)
                .join(registry.endpoint()).build()).toBuilder()
                .maxInboundStreams(maxInboundStreams).build();
            final ProtocolPeer member = new ProtocolPeer(memberConfig, new MembershipListener() {
                @Override
                public void onJoined(final int selfId) {
                    joined.set(true);
                }

                @Override
                public void onRegistryLost(final String message) {
                    registryLost.set(true);
                    originalErr.println("[member] " + message);
                }
            }, new SystemNanoClock(), errorLog);
            final StallProbe probe = new StallProbe(member.traffic());
            member.duty(probe);
            try (member) {
                member.start();
                registry.awaitMembers(2, Duration.ofSeconds(10));
                TimeUnit.SECONDS.sleep(settleS);
                final File images = new File(member.aeronDirectoryName(), "images");
                final ImageSampler sampler = new ImageSampler(images);
                sampler.start();
                probe.reset();
                final String endpoint = member.endpoint();
                final InetSocketAddress target = new InetSocketAddress(endpoint.substring(0, endpoint.lastIndexOf(':')),
                    Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1)));
                final long startNs = System.nanoTime();
                final long sent;
                try (AeronGarbage garbage = new AeronGarbage(target, seed, memberConfig.termLengthBytes(),
                    Configuration.mtuLength())) {
                    sent = garbage.send(datagrams);
                }
                final long sendMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
                TimeUnit.SECONDS.sleep(afterS);
                sampler.stopAndJoin();
                final CommonContext driverFiles = new CommonContext().aeronDirectoryName(member.aeronDirectoryName());
                driverFiles.conclude();
                final int distinct = driverFiles.saveErrorLog(new PrintStream(OutputStream.nullOutputStream()));
                final String driverCounters = driverCounters(driverFiles);
                return new Result(sent, sendMs, TimeUnit.NANOSECONDS.toMillis(probe.longestCycleGapNs),
                    TimeUnit.NANOSECONDS.toMillis(probe.longestHeartbeatGapNs), registryLost.get() || !joined.get(),
                    sampler.most, logLines.get(), logTraces.get(), stderr.lines.get(), distinct, member.receiveGuard(),
                    member.frameCounters() + " " + member.traffic() + " " + member.receiveGuard() + " driver{" + driverCounters + "}");
            }
        } finally {
            System.setErr(originalErr);
        }
    }

    /** The driver's system counters a flood moves (errors, invalid packets, images rejected, cycle times). */
    private static String driverCounters(final CommonContext driverFiles) {
        final MappedByteBuffer cnc = driverFiles.mapExistingCncFile(null);
        try {
            final DirectBuffer metaData = CncFileDescriptor.createMetaDataBuffer(cnc);
            final CountersReader counters = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(cnc, metaData),
                CncFileDescriptor.createCountersValuesBuffer(cnc, metaData));
            final StringBuilder sb = new StringBuilder();
            counters.forEach((value, counterId, label) -> {
                if (label.startsWith("Errors") || label.startsWith("Invalid packets") || label.startsWith("Images rejected")
                    || label.startsWith("Bytes received") || label.contains("max cycle time")) {
                    sb.append(sb.length() == 0 ? "" : ", ").append(label.replaceAll(":.*", "")).append('=').append(value);
                }
            });
            return sb.toString();
        } finally {
            BufferUtil.free(cnc);
        }
    }

    /** On the member's agent thread: the longest gaps between its duty cycles and between heartbeats it sent. */
    private static final class StallProbe implements Duty {
        private final TrafficCounters traffic;
        private volatile boolean resetRequested;
        private volatile long longestCycleGapNs;
        private volatile long longestHeartbeatGapNs;
        private long lastCycleNs;
        private long lastHeartbeatNs;
        private long heartbeatsSent;

        StallProbe(final TrafficCounters traffic) {
            this.traffic = traffic;
        }

        void reset() {
            resetRequested = true;
            while (resetRequested) {
                Thread.onSpinWait();
            }
        }

        @Override
        public int doWork(final long nowNs) {
            final long sentNow = traffic.messagesSent(MembershipMessages.HEARTBEAT);
            if (resetRequested) {
                longestCycleGapNs = 0;
                longestHeartbeatGapNs = 0;
                lastHeartbeatNs = nowNs;
                heartbeatsSent = sentNow;
                lastCycleNs = nowNs;
                resetRequested = false;
                return 0;
            }
            if (lastCycleNs != 0 && nowNs - lastCycleNs > longestCycleGapNs) {
                longestCycleGapNs = nowNs - lastCycleNs;
            }
            lastCycleNs = nowNs;
            if (sentNow != heartbeatsSent) {
                if (lastHeartbeatNs != 0 && nowNs - lastHeartbeatNs > longestHeartbeatGapNs) {
                    longestHeartbeatGapNs = nowNs - lastHeartbeatNs;
                }
                lastHeartbeatNs = nowNs;
                heartbeatsSent = sentNow;
            }
            return 0;
        }

        @Override
        public boolean isHousekeeping() {
            return true;
        }
    }

    /** Counts the image log buffers in the driver's directory every {@link #SAMPLE_MS}, keeping the most. */
    private static final class ImageSampler extends Thread {
        private final File images;
        private volatile boolean running = true;
        private volatile int most;

        ImageSampler(final File images) {
            super("flood-image-sampler");
            setDaemon(true);
            this.images = images;
        }

        @Override
        public void run() {
            while (running) {
                final String[] names = images.list();
                if (names != null && names.length > most) {
                    most = names.length;
                }
                try {
                    Thread.sleep(SAMPLE_MS);
                } catch (final InterruptedException e) {
                    return;
                }
            }
        }

        void stopAndJoin() throws InterruptedException {
            running = false;
            join();
        }
    }

    /** Passes the first lines through and counts them all. */
    private static final class LineCounter extends OutputStream {
        private static final int PASSED_LINES = 20;
        private final PrintStream target;
        private final AtomicLong lines = new AtomicLong();

        LineCounter(final PrintStream target) {
            this.target = target;
        }

        @Override
        public void write(final int b) {
            if (lines.get() < PASSED_LINES) {
                target.write(b);
            }
            if (b == '\n') {
                lines.incrementAndGet();
            }
        }
    }
}
