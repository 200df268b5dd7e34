package org.divvy.perf.lanwan;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.SystemNanoClock;
import org.divvy.NodeConfig;
import org.divvy.perf.BenchmarkSecret;
import org.divvy.node.ProtocolPeer;

/**
 * Steal round trip vs raw Aeron ping-pong between this process (thief on a {@link ProtocolPeer}, pinger)
 * and a child JVM ({@link RttPeer}: a real node hosting the registry, whose real victim answers "none";
 * echoer), both over loopback UDP with embedded INVOKER drivers and the network agent's idle strategy.
 * The raw ping-pong runs first, then the steals, never at the same time.
 */
final class StealRttBenchmark {
    private static final long TIMEOUT_MS = 120_000;
    /** Number of alternating raw/steal blocks the samples are split into. */
    private static final int BLOCKS = 20;

    private final int basePort;
    /** The thief's settings before the benchmark's own; the peer process gets them as properties. */
    private final NodeConfig base;
    private final PrintStream log;

    StealRttBenchmark(final int basePort, final NodeConfig base, final PrintStream log) {
        this.basePort = basePort;
        this.base = base;
        this.log = log;
    }

    record Result(Histogram steal, Histogram raw, long rawResends, long stealResends, double authenticationNs) {
        double stealP50Us() {
            return steal.getValueAtPercentile(50) / 1000.0;
        }

        double stealP99Us() {
            return steal.getValueAtPercentile(99) / 1000.0;
        }

        double rawP50Us() {
            return raw.getValueAtPercentile(50) / 1000.0;
        }

        double rawP99Us() {
            return raw.getValueAtPercentile(99) / 1000.0;
        }

        void addTo(final LanWanCsv csv) {
            final String note = "loopback 2 processes; embedded INVOKER drivers; agent BackoffIdleStrategy(1us..1ms)";
            csv.add("steal-rtt", "steal-reply-none", "p50", stealP50Us(), "us", note);
            csv.add("steal-rtt", "steal-reply-none", "p99", stealP99Us(), "us", note);
            csv.add("steal-rtt", "steal-reply-none", "samples", steal.getTotalCount(), "count", note);
            csv.add("steal-rtt", "raw-aeron-ping-pong", "p50", rawP50Us(), "us", note);
            csv.add("steal-rtt", "raw-aeron-ping-pong", "p99", rawP99Us(), "us", note);
            csv.add("steal-rtt", "raw-aeron-ping-pong", "samples", raw.getTotalCount(), "count", note);
            csv.add("steal-rtt", "steal-reply-none", "resends", stealResends, "count", "requests unanswered for 200 ms and sent again");
            csv.add("steal-rtt", "raw-aeron-ping-pong", "resends", rawResends, "count", "pings unanswered for 200 ms and sent again");
            csv.add("steal-rtt", "steal-over-raw", "p50_ratio", stealP50Us() / rawP50Us(), "ratio", "target <= 1.3 (authenticated)");
            csv.add("steal-rtt", "steal-over-raw", "p99_ratio", stealP99Us() / rawP99Us(), "ratio", "target <= 1.3 (authenticated)");
            csv.add("steal-rtt", "tag-sign-and-check", "per_frame", authenticationNs, "ns",
                "Poly1305-AES trailer of a steal request, one thread; a round trip pays it twice");
        }
    }

    Result run(final int samples, final int warmup) {
        final int peerDivvyPort = basePort;
        final int peerRawPort = basePort + 1;
        final int ownRawPort = basePort + 3;
        final Process child = startPeer(base, peerDivvyPort, peerRawPort, ownRawPort);
        try {
            awaitReady(child);
            final NodeConfig net = base.toBuilder().networked(true).bind(WanTopology.HOST).port(basePort + 2)
                .join(WanTopology.HOST + ":" + peerDivvyPort).build();
            final StealRttListener thief = new StealRttListener();
            final Histogram raw;
            final Histogram steal;
            final long resends;
            final long stealResends;
            try (RawPingPong ping = new RawPingPong(WanTopology.HOST + ":" + ownRawPort, WanTopology.HOST + ":" + peerRawPort, true,
                net.termLengthBytes());
                ProtocolPeer peer = new ProtocolPeer(net, thief,
                    new SystemNanoClock(), Throwable::printStackTrace)) {
                thief.attach(peer);
                peer.start();
                ping.warmup(warmup);
                thief.warmup(warmup);
                // Alternating blocks, so JIT warm-up and machine noise hit both kinds alike.
                final int total = warmup + samples;
                final int block = Math.max(1, total / BLOCKS);
                int done = 0;
                while (done < total) {
                    final int count = Math.min(block, total - done);
                    ping.runBlock(count, TIMEOUT_MS);
                    stealBlock(thief, done + count);
                    done += count;
                }
                raw = ping.histogram().copy();
                steal = thief.histogram().copy();
                resends = ping.resends();
                stealResends = thief.resends();
            }
            final Result result = new Result(steal, raw, resends, stealResends, FrameAuthenticationCost.signAndVerifyNs());
            log.printf("steal RTT (reply none, authenticated): p50 %.1f us p99 %.1f us | raw Aeron ping-pong: p50 %.1f us " +
                    "p99 %.1f us | ratio p50 %.2f p99 %.2f (%d samples each; resends raw %d, steal %d) | Poly1305-AES sign and " +
                    "check %.0f ns per frame%n", result.stealP50Us(), result.stealP99Us(),
                result.rawP50Us(), result.rawP99Us(), result.stealP50Us() / result.rawP50Us(),
                result.stealP99Us() / result.rawP99Us(), samples, resends, stealResends, result.authenticationNs());
            log.printf("steal RTT percentiles (us):%s | raw:%s%n", percentiles(steal), percentiles(raw));
            return result;
        } finally {
            stopPeer(child);
        }
    }

    /** p5 to p95: where a difference of medians comes from (a shift of the whole, or more slow samples). */
    private static String percentiles(final Histogram histogram) {
        final StringBuilder text = new StringBuilder();
        for (final double percentile : new double[] {5, 10, 25, 50, 75, 90, 95}) {
            text.append(String.format(" p%.0f %.1f", percentile, histogram.getValueAtPercentile(percentile) / 1000.0));
        }
        return text.toString();
    }

    private static void stealBlock(final StealRttListener thief, final int goal) {
        thief.target(goal);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (thief.completed() < goal) {
            if (thief.failure() != null) {
                throw new IllegalStateException("steal RTT: " + thief.failure());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("steal RTT: " + thief.completed() + " of " + goal +
                    " round trips within " + TIMEOUT_MS + " ms (joined: " + thief.joined() + ")");
            }
            RawPingPong.sleepMs(1);
        }
    }

    private static Process startPeer(final NodeConfig base, final int divvyPort, final int rawPort, final int peerRawPort) {
        final String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        final List<String> command = new ArrayList<>(List.of(java, "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-Xmx256m"));
        base.toProperties().forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RttPeer.class.getName(),
            String.valueOf(divvyPort), String.valueOf(rawPort), String.valueOf(peerRawPort)));
        try {
            return BenchmarkSecret.export(base, new ProcessBuilder(command)).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot start the RTT peer process", ex);
        }
    }

    private static void awaitReady(final Process child) {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        try {
            final String line = reader.readLine();
            if (!"READY".equals(line)) {
                throw new IllegalStateException("RTT peer process did not start: first line " + line);
            }
        } catch (final IOException ex) {
            throw new UncheckedIOException("RTT peer process did not start", ex);
        }
    }

    private static void stopPeer(final Process child) {
        try {
            child.getOutputStream().close();
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroy();
                child.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (final IOException ex) {
            child.destroy();
        } catch (final InterruptedException ex) {
            child.destroy();
            Thread.currentThread().interrupt();
        }
    }
}
