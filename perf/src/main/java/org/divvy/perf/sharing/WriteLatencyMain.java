package org.divvy.perf.sharing;

import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.perf.BenchmarkSecret;
import org.divvy.perf.PerfFiles;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;
import org.divvy.perf.lanwan.WanTopology;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar divvy-perf.jar write-latency [--sites 4] [--nodes-per-site 16] [--delays-ms 0,10,50] [--writes 40]
 * [--out perf/results/write-latency.csv]}: the time for a write to a shared object to reach every replica across
 * sites, ÷ the relay's one-way delay, busy nodes and idle ones ({@link WriteLatencyBenchmark}). One CSV
 * ({@code case,delay_ms,metric,value,unit,note}) and {@code <name>.png} beside it. Every node starts from
 * {@link NodeConfig#fromSystemProperties()}, so a node setting can be varied with {@code -Ddivvy.<setting>=...}.
 */
public final class WriteLatencyMain {
    static final String DEFAULT_OUT = "perf/results/write-latency.csv";
    /**
     * The nodes' {@code idlePublicationCloseMs} (2 s): 16 nodes share a driver here, and in a run random steals open
     * streams to every member, each work for the driver in every duty cycle (perf/README.md, "64 replicas: where a
     * write's time goes").
     */
    static final long DEFAULT_IDLE_PUBLICATION_CLOSE_MS = 2_000;
    /**
     * The nodes' {@code deepIdleVictimHoldMs} (5 s; the node default is 0): each deep-idle thief keeps its victim, so
     * 64 idle nodes sharing four drivers keep a few hundred streams instead of thousands (perf/README.md, "64 replicas:
     * idle nodes hold their victims").
     */
    static final long DEFAULT_DEEP_IDLE_VICTIM_HOLD_MS = 5_000;
    /**
     * How long the busy computation runs before its first write (15 s): the JIT's compiles of the 64 nodes' paths took
     * 0.2-0.4 of the 2 cores in the writes' first seconds otherwise (--diagnose), beside everything the writes wait for.
     */
    static final int DEFAULT_BUSY_WARMUP_S = 15;
    /**
     * The relay thread's nice value (-10): it stands for the wide-area links, and at nice 0 it waited for a core behind the
     * 64 nodes' threads: a datagram left 1.6-25 ms after its release time on average (measured in the relay, perf/README.md
     * "64 replicas: where a write's time goes"); at -10, 0.4 ms.
     */
    static final int DEFAULT_RELAY_NICE = -10;

    private WriteLatencyMain() {
    }

    /** Parses {@code args} (after the {@code write-latency} word) and runs; returns the exit code (0 ok, 1 failed, 2 usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("write-latency", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final NodeConfig base;
        try {
            base = BenchmarkSecret.withSecret(NodeConfig.fromSystemProperties());
        } catch (final DivvyException ex) {
            err.println("divvy-perf write-latency: " + ex.getMessage());
            return 2;
        }
        final boolean quick = parsed.hasMatchedOption("--quick");
        final int sites = parsed.matchedOptionValue("--sites", quick ? 2 : 4);
        final int perSite = parsed.matchedOptionValue("--nodes-per-site", quick ? 2 : 16);
        final long[] delays = Arrays.stream(parsed.<String>matchedOptionValue("--delays-ms", quick ? "5" : "0,10,50").split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
        final int writes = parsed.matchedOptionValue("--writes", quick ? 3 : 40);
        final int leafUs = parsed.matchedOptionValue("--leaf-us", 1000);
        final long busyIntervalMs = parsed.matchedOptionValue("--busy-interval-ms", 200L);
        final long idleIntervalMs = parsed.matchedOptionValue("--idle-interval-ms", quick ? 300L : 1500L);
        final int basePort = parsed.matchedOptionValue("--base-port", 23000);
        final boolean driverPerSite = parsed.hasMatchedOption("--driver-per-site");
        final boolean driverPerNode = parsed.hasMatchedOption("--driver-per-node");

        final long idlePublicationCloseMs = parsed.matchedOptionValue("--idle-publication-close-ms", DEFAULT_IDLE_PUBLICATION_CLOSE_MS);
        final long victimHoldMs = parsed.matchedOptionValue("--deep-idle-victim-hold-ms", DEFAULT_DEEP_IDLE_VICTIM_HOLD_MS);
        final long busyWarmupMs = 1000L * parsed.<Integer>matchedOptionValue("--busy-warmup-s", quick ? 0 : DEFAULT_BUSY_WARMUP_S);
        final boolean diagnose = parsed.hasMatchedOption("--diagnose");
        final int relayNice = parsed.matchedOptionValue("--relay-nice", quick ? 0 : DEFAULT_RELAY_NICE);
        final long imageLivenessMs = parsed.matchedOptionValue("--image-liveness-ms", 0L);
        if (driverPerSite && driverPerNode) {
            err.println("divvy-perf write-latency: --driver-per-site and --driver-per-node exclude each other: choose one");
            return 2;
        }
        if (driverPerNode && imageLivenessMs > 0) {
            err.println("divvy-perf write-latency: --image-liveness-ms sets the shared drivers' timeout; with --driver-per-node "
                + "set -Daeron.image.liveness.timeout=NS for the nodes' own drivers instead");
            return 2;
        }
        final long idleRunSettleMs = parsed.matchedOptionValue("--idle-run-settle-ms", 0L);
        final Path csvPath = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
        final String note = sites + " sites x " + perSite + " nodes in one JVM" + (driverPerSite ? "; a media driver per site" : "")
            + (driverPerNode ? "; each node on an embedded driver of its own (Aeron's socket buffers; --diagnose has no driver counters)" : "")
            + "; idlePublicationCloseMs " + idlePublicationCloseMs + "; deepIdleVictimHoldMs " + victimHoldMs + (imageLivenessMs > 0 ? "; drivers' image liveness " + imageLivenessMs + " ms" : "")
            + (idleRunSettleMs > 0 ? "; idle run's first write after " + idleRunSettleMs + " ms" : "")
            + "; relay nice " + relayNice + "; busy writes after " + busyWarmupMs / 1000 + " s of the computation"
            + "; combining off; busy = SIMULATED leaves of " + leafUs + " us";
        final List<String> rows = new ArrayList<>();
        final List<String> categories = new ArrayList<>();
        final List<double[]> ratios = new ArrayList<>(); // p50 and p90 of busy, idle-in-run, idle-between-runs per delay > 0
        try {
            out.println("divvy-perf write-latency " + String.join(" ", args) + " | " + Runtime.getRuntime().availableProcessors()
                + " cores | load average at start " + PerfFiles.loadAverage() + " | node settings changed by properties: "
                + (base.toProperties().isEmpty() ? "none" : base.toProperties()));
            final WriteLatencyBenchmark benchmark = new WriteLatencyBenchmark(new WanTopology(sites, perSite, basePort),
                base.toBuilder().networked(true).deepIdleVictimHoldMs(victimHoldMs).build(), out,
                idlePublicationCloseMs, busyWarmupMs, diagnose, relayNice, imageLivenessMs).idleRunSettleMs(idleRunSettleMs);
            for (final long delayMs : delays) {
                final List<WriteLatencyBenchmark.CaseResult> results = benchmark.run(delayMs, writes, leafUs, busyIntervalMs, idleIntervalMs,
                    driverPerSite, driverPerNode);
                final double[] r = new double[2 * results.size()];
                int k = 0;
                for (final WriteLatencyBenchmark.CaseResult result : results) {
                    final double[] last = result.lastMs();
                    final double p50 = WriteLatencyBenchmark.percentile(last, 0.5);
                    final double p90 = WriteLatencyBenchmark.percentile(last, 0.9);
                    row(rows, result, "replicas", result.holders(), "count", note);
                    row(rows, result, "writes", result.writes().size(), "count", note);
                    row(rows, result, "writes_incomplete", result.incomplete(), "count", note + "; a replica never had it (best effort)");
                    row(rows, result, "last_replica_p50", p50, "ms", note);
                    row(rows, result, "last_replica_p90", p90, "ms", note);
                    row(rows, result, "one_replica_same_site_p50", WriteLatencyBenchmark.percentile(result.arrivalMs(true), 0.5), "ms", note);
                    row(rows, result, "one_replica_other_site_p50", WriteLatencyBenchmark.percentile(result.arrivalMs(false), 0.5), "ms", note);
                    if (delayMs > 0) {
                        row(rows, result, "last_replica_p50_per_delay", p50 / delayMs, "ratio", note + "; target <= 2");
                        row(rows, result, "last_replica_p90_per_delay", p90 / delayMs, "ratio", note + "; target <= 2");
                        r[k++] = p50 / delayMs;
                        r[k++] = p90 / delayMs;
                    }
                }
                if (delayMs > 0) {
                    categories.add(delayMs + " ms one-way");
                    ratios.add(r);
                }
                write(csvPath, rows); // after each delay: a run stopped later keeps what it measured
            }
            write(csvPath, rows);
            if (!categories.isEmpty()) {
                final String[] names = {"busy p50", "busy p90", "idle in a run p50", "idle in a run p90", "idle between runs p50",
                    "idle between runs p90"};
                final Color[] colors = {new Color(0x1f77b4), new Color(0xaec7e8), new Color(0x2ca02c), new Color(0x98df8a),
                    new Color(0xff7f0e), new Color(0xffbb78)};
                final List<BarSeries> series = new ArrayList<>();
                for (int s = 0; s < names.length; s++) {
                    final int column = s;
                    series.add(new BarSeries(names[s], colors[s], ratios.stream().mapToDouble(v -> v[column]).toArray()));
                }
                final Path png = csvPath.resolveSibling(csvPath.getFileName().toString().replaceFirst("\\.csv$", "") + ".png");
                new GroupedBarChart("Time until the last of " + sites * perSite + " replicas has a write, / one-way delay",
                    note + "; target <= 2", "last replica / one-way delay", categories, series, 2.0).writePng(png);
            }
            out.println("wrote " + csvPath + " (" + rows.size() + " rows) | load average at end " + PerfFiles.loadAverage());
            return 0;
        } catch (final RuntimeException ex) {
            err.println("divvy-perf write-latency: FAILED: " + ex);
            ex.printStackTrace(err);
            write(csvPath, rows);
            return 1;
        }
    }

    private static void row(final List<String> rows, final WriteLatencyBenchmark.CaseResult result, final String metric,
        final double value, final String unit, final String note) {
        rows.add(String.join(",", result.caseName(), String.valueOf(result.delayMs()), metric,
            String.format(Locale.ROOT, "%.4f", value), unit, note));
    }

    private static void write(final Path path, final List<String> rows) {
        final List<String> lines = new ArrayList<>();
        lines.add("case,delay_ms,metric,value,unit,note");
        lines.addAll(rows);
        PerfFiles.writeLines(path, lines);
    }


    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf write-latency");
        spec.usageMessage().description("Time for a shared-object write to reach every replica across sites behind a delaying relay, "
            + "/ the one-way delay; busy (SIMULATED) nodes, idle nodes in a run and between runs; combining off.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).arity("0")
            .description("2 sites x 2 nodes, 5 ms, 3 writes: a smoke test; the numbers mean nothing.").build());
        spec.addOption(option("--sites", int.class, "N", "Sites (default 4)."));
        spec.addOption(option("--nodes-per-site", int.class, "N", "Nodes per site, one worker each (default 16)."));
        spec.addOption(option("--delays-ms", String.class, "LIST", "One-way delays between sites; 0 is the control (default 0,10,50)."));
        spec.addOption(option("--writes", int.class, "N", "Writes per case (default 40)."));
        spec.addOption(option("--leaf-us", int.class, "US", "Parked leaf time of the busy computation (default 1000)."));
        spec.addOption(option("--busy-interval-ms", long.class, "MS", "Time between writes while busy (default 200)."));
        spec.addOption(option("--idle-interval-ms", long.class, "MS",
            "Time between writes to idle nodes: longer than deepIdleAfterMs, so each write finds them in deep idle (default 1500)."));
        spec.addOption(option("--base-port", int.class, "PORT", "First UDP port of the nodes (default 23000)."));
        spec.addOption(OptionSpec.builder("--driver-per-site").type(boolean.class).arity("0")
            .description("Each site's nodes share a media driver of their own (default: all nodes share one).").build());
        spec.addOption(OptionSpec.builder("--driver-per-node").type(boolean.class).arity("0")
            .description("Each node on an embedded driver of its own, stepped by its agent, as `divvy node` runs (default: all "
                + "nodes share one).").build());
        spec.addOption(option("--idle-publication-close-ms", long.class, "MS",
            "The nodes' idlePublicationCloseMs: a publication idle this long is closed; 0 never (default "
                + DEFAULT_IDLE_PUBLICATION_CLOSE_MS + ")."));
        spec.addOption(option("--deep-idle-victim-hold-ms", long.class, "MS",
            "The nodes' deepIdleVictimHoldMs: how long a deep-idle thief keeps one victim; 0 a new one every request (default "
                + DEFAULT_DEEP_IDLE_VICTIM_HOLD_MS + ")."));
        spec.addOption(option("--busy-warmup-s", int.class, "S", "How long the busy computation runs before its first write (default "
            + DEFAULT_BUSY_WARMUP_S + "; 0 with --quick)."));
        spec.addOption(option("--relay-nice", int.class, "N", "The relay thread's nice value, set with renice (below 0 needs root); "
            + "0 leaves it (default " + DEFAULT_RELAY_NICE + "; 0 with --quick). A value it cannot set stops the run."));
        spec.addOption(option("--idle-run-settle-ms", long.class, "MS", "How long the idle run lasts before its first write: its "
            + "nodes steal awake from random members for deepIdleAfterMs after the run starts, and those streams leave the drivers "
            + "over the next ~12 s (default 0: one --idle-interval-ms)."));
        spec.addOption(option("--image-liveness-ms", long.class, "MS", "The drivers' image liveness timeout: how long a receiver keeps "
            + "the image of a stream that went silent or closed; 0 leaves Aeron's (default 0: 10 s)."));
        spec.addOption(OptionSpec.builder("--diagnose").type(boolean.class).arity("0")
            .description("Print the drivers' counters and each thread group's CPU and run-queue wait around each case (Linux).").build());
        spec.addOption(option("--out", Path.class, "CSV", "CSV (default " + DEFAULT_OUT + "); <name>.png goes beside it."));
        return spec;
    }

    private static OptionSpec option(final String name, final Class<?> type, final String label, final String description) {
        return OptionSpec.builder(name).type(type).paramLabel(label).description(description).build();
    }
}
