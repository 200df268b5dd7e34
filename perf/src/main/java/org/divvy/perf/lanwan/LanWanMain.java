package org.divvy.perf.lanwan;

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
import org.divvy.StealPolicy;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar divvy-perf.jar lanwan [--steal-rtt] [--efficiency] [--speedup] [--quick] [--out CSV]}:
 * the LAN/WAN figures side by side in one run, one CSV plus a PNG per section beside it. Options are
 * declared through picocli's programmatic model (no reflection). Every node starts from
 * {@link NodeConfig#fromSystemProperties()}, so any node setting can be varied with
 * {@code -Ddivvy.<setting>=...}; what a benchmark fixes itself (workers, ports, sites, policy, its
 * lenient heartbeats) overrides it.
 */
public final class LanWanMain {
    static final String DEFAULT_OUT = "perf/results/lanwan.csv";

    private LanWanMain() {
    }

    /** Parses {@code args} (after the {@code lanwan} word) and runs; returns the exit code (0 ok, 1 failed, 2 usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("lanwan", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final boolean quick = parsed.hasMatchedOption("--quick");
        boolean rtt = parsed.hasMatchedOption("--steal-rtt");
        boolean efficiency = parsed.hasMatchedOption("--efficiency");
        boolean speedup = parsed.hasMatchedOption("--speedup");
        if (!rtt && !efficiency && !speedup) {
            rtt = true;
            efficiency = true;
            speedup = true;
        }
        final NodeConfig base;
        try {
            base = BenchmarkSecret.withSecret(NodeConfig.fromSystemProperties());
        } catch (final DivvyException ex) {
            err.println("divvy-perf lanwan: " + ex.getMessage());
            return 2;
        }
        final Path csvPath = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
        final int basePort = parsed.matchedOptionValue("--base-port", 21000);
        final LanWanCsv csv = new LanWanCsv();
        try {
            out.println("divvy-perf lanwan " + String.join(" ", args) + " | " + Runtime.getRuntime().availableProcessors() +
                " cores | load average at start " + loadAverage() + " | node settings changed by properties: " +
                (base.toProperties().isEmpty() ? "none" : base.toProperties()));
            if (rtt) {
                final int samples = parsed.matchedOptionValue("--rtt-samples", quick ? 2_000 : 50_000);
                final StealRttBenchmark.Result result = new StealRttBenchmark(basePort + 500, base, out).run(samples, quick ? 200 : 5_000);
                result.addTo(csv);
                chart(csvPath, "steal-rtt", "Steal round trip vs raw Aeron ping-pong (loopback, 2 processes)",
                    "p50 and p99 in microseconds; target steal/raw <= 1.2", "microseconds",
                    List.of("p50", "p99"),
                    List.of(new BarSeries("steal request -> reply none", new Color(0x1f77b4),
                            new double[] {result.stealP50Us(), result.stealP99Us()}),
                        new BarSeries("raw Aeron ping-pong", new Color(0xff7f0e),
                            new double[] {result.rawP50Us(), result.rawP99Us()})), Double.NaN);
            }
            if (efficiency) {
                final int sites = parsed.matchedOptionValue("--sites", quick ? 2 : 3);
                final int perSite = parsed.matchedOptionValue("--nodes-per-site", quick ? 2 : 8);
                final long[] delays = withControl(parseLongs(parsed.matchedOptionValue("--delays-ms", quick ? "5" : "10,50")));
                final int[] leaves = Arrays.stream(parseLongs(parsed.matchedOptionValue("--leaf-us", "1000")))
                    .mapToInt(v -> (int)v).toArray();
                final StealPolicy[] policies = parsePolicies(parsed.matchedOptionValue("--policies", "RS,CRS"));
                final double idealMs = idealMs(parsed, quick);
                final int repeats = parsed.matchedOptionValue("--repeats", quick ? 1 : 3);
                if (repeats < 1) {
                    throw new IllegalArgumentException("--repeats " + repeats + ", must be >= 1");
                }
                final List<EfficiencyResult> results = new EfficiencyBenchmark(new WanTopology(sites, perSite, basePort), base, out,
                        leafPark(parsed.matchedOptionValue("--leaf-park", "compensated")))
                    .run(delays, policies, leaves, idealMs, repeats, !quick && !parsed.hasMatchedOption("--no-warm-up"));
                final List<EfficiencySummary> summaries = EfficiencySummary.of(results);
                EfficiencyReport.addTo(csv, results, summaries, sites, perSite);
                EfficiencyReport.print(out, summaries, sites, perSite, "java -jar perf/target/divvy-perf.jar lanwan " + String.join(" ", args));
                if (!results.stream().allMatch(EfficiencyResult::answerCorrect)) {
                    throw new IllegalStateException("an efficiency run computed a wrong answer or lost a leaf; see the log");
                }
                final List<String> categories = new ArrayList<>();
                for (final EfficiencySummary s : summaries) {
                    final String category = EfficiencyReport.category(s);
                    if (!categories.contains(category)) {
                        categories.add(category);
                    }
                }
                final List<BarSeries> series = new ArrayList<>();
                for (int p = 0; p < policies.length; p++) {
                    final double[] values = new double[categories.size()];
                    for (final EfficiencySummary s : summaries) {
                        if (s.policy() == policies[p]) {
                            values[categories.indexOf(EfficiencyReport.category(s))] = s.median();
                        }
                    }
                    series.add(new BarSeries(policies[p] + " (median of " + repeats + ")", POLICY_COLORS[p % POLICY_COLORS.length], values));
                }
                chart(csvPath, "efficiency", "SIMULATED efficiency, " + sites + " sites x " + perSite + " nodes (1 worker each), " +
                        String.format(Locale.ROOT, "%.0f s ideal", idealMs / 1000), "one-way delay between sites / parked leaf time; " +
                        "0 ms = the harness's own loss (control); targets CRS >= 0.95 (10 ms), >= 0.90 (50 ms)",
                    "efficiency (ideal / measured)", categories, series, 1.0);
            }
            if (speedup) {
                final SpeedupBenchmark.Result result = new SpeedupBenchmark(basePort + 600, base, out).run(quick,
                    parsed.matchedOptionValue("--rounds", quick ? 1 : 3));
                result.addTo(csv);
                chart(csvPath, "speedup", "Speedup of the real examples: 2 nodes x 1 worker vs 1 node x 1 worker",
                    "in-process nodes over loopback Aeron, medians; " + Runtime.getRuntime().availableProcessors() + " cores",
                    "speedup (T1 / T2)", result.apps(),
                    List.of(new BarSeries("2 nodes vs 1", new Color(0x9467bd), result.speedups())), 1.0);
            }
            csv.write(csvPath);
            out.println("wrote " + csvPath + " (" + csv.rows().size() + " rows) | load average at end " + loadAverage());
            return 0;
        } catch (final IllegalArgumentException ex) {
            err.println("divvy-perf lanwan: " + ex.getMessage());
            return 2;
        } catch (final RuntimeException ex) {
            err.println("divvy-perf lanwan: FAILED: " + ex);
            ex.printStackTrace(err);
            csv.write(csvPath);
            return 1;
        }
    }

    private static void chart(final Path csvPath, final String section, final String title, final String subtitle,
        final String yAxis, final List<String> categories, final List<BarSeries> series, final double reference) {
        final String name = csvPath.getFileName().toString().replaceFirst("\\.csv$", "");
        final Path png = csvPath.resolveSibling(name + "-" + section + ".png");
        new GroupedBarChart(title, subtitle, yAxis, categories, series, reference).writePng(png);
    }

    private static final Color[] POLICY_COLORS = {new Color(0xd62728), new Color(0x2ca02c), new Color(0x1f77b4), new Color(0xff7f0e)};

    /** {@code delays} with the 0 ms control first (added when missing): every efficiency run is read against it. */
    static long[] withControl(final long[] delays) {
        final List<Long> list = new ArrayList<>();
        list.add(EfficiencyBenchmark.CONTROL_DELAY_MS);
        for (final long d : delays) {
            if (d < 0) {
                throw new IllegalArgumentException("--delays-ms " + d + ", must be >= 0");
            }
            if (!list.contains(d)) {
                list.add(d);
            }
        }
        return list.stream().mapToLong(Long::longValue).toArray();
    }

    static StealPolicy[] parsePolicies(final String csv) {
        final String[] names = csv.split(",");
        final StealPolicy[] policies = new StealPolicy[names.length];
        for (int i = 0; i < names.length; i++) {
            try {
                policies[i] = StealPolicy.valueOf(names[i].trim().toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException ex) {
                throw new IllegalArgumentException("--policies " + csv + ": `" + names[i].trim() + "` is not one of " +
                    Arrays.toString(StealPolicy.values()));
            }
        }
        return policies;
    }

    /** --leaf-park: compensated (true: leaves last their time on average) or plain (at least their time). */
    static boolean leafPark(final String value) {
        return switch (value) {
            case "compensated" -> true;
            case "plain" -> false;
            default -> throw new IllegalArgumentException("--leaf-park " + value + ", must be compensated or plain");
        };
    }

    /** --ideal-seconds (default 30; quick 0.1 s) or --ideal-ms, not both. */
    private static double idealMs(final ParseResult parsed, final boolean quick) {
        if (parsed.hasMatchedOption("--ideal-seconds") && parsed.hasMatchedOption("--ideal-ms")) {
            throw new IllegalArgumentException("--ideal-seconds and --ideal-ms both given; give one");
        }
        final double ms = parsed.hasMatchedOption("--ideal-ms") ? parsed.matchedOptionValue("--ideal-ms", 0.0)
            : parsed.matchedOptionValue("--ideal-seconds", quick ? 0.1 : 30.0) * 1000.0;
        if (!(ms > 0)) {
            throw new IllegalArgumentException("ideal time " + ms + " ms, must be > 0");
        }
        return ms;
    }

    static long[] parseLongs(final String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
    }

    private static String loadAverage() {
        return PerfFiles.loadAverage();
    }

    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf lanwan");
        spec.usageMessage().description("LAN/WAN harness: steal RTT vs raw Aeron, SIMULATED RS vs CRS efficiency over an "
            + "emulated WAN, speedup of the examples on 2 nodes. No section flag = all sections.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(flag("--steal-rtt", "Steal round trip (reply none) vs raw Aeron ping-pong between two processes."));
        spec.addOption(flag("--efficiency", "SIMULATED efficiency of RS vs CRS across sites behind a delaying relay."));
        spec.addOption(flag("--speedup", "Speedup of fib/nqueens/uts/mergesort/raytracer on 2 nodes vs 1."));
        spec.addOption(flag("--quick", "Tiny sizes (2 sites x 2 nodes, 5 ms): a smoke test; the numbers mean nothing."));
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("CSV (default " + DEFAULT_OUT + "); <name>-<section>.png go beside it.").build());
        spec.addOption(OptionSpec.builder("--sites").type(int.class).paramLabel("N").description("Sites (default 3).").build());
        spec.addOption(OptionSpec.builder("--nodes-per-site").type(int.class).paramLabel("N").description("Nodes per site (default 8).").build());
        spec.addOption(OptionSpec.builder("--delays-ms").type(String.class).paramLabel("LIST")
            .description("One-way delays between sites (default 10,50); the 0 ms control always runs too.").build());
        spec.addOption(OptionSpec.builder("--leaf-us").type(String.class).paramLabel("LIST")
            .description("Simulated leaf times (default 1000).").build());
        spec.addOption(OptionSpec.builder("--ideal-seconds").type(double.class).paramLabel("S")
            .description("Ideal time each efficiency run is sized for: leaves x leaf / nodes >= S (default 30; quick 0.1).").build());
        spec.addOption(OptionSpec.builder("--ideal-ms").type(double.class).paramLabel("MS")
            .description("The same in milliseconds (instead of --ideal-seconds).").build());
        spec.addOption(OptionSpec.builder("--repeats").type(int.class).paramLabel("N")
            .description("Runs of each efficiency case, interleaved round by round (default 3; quick 1).").build());
        spec.addOption(OptionSpec.builder("--policies").type(String.class).paramLabel("LIST")
            .description("Steal policies compared in --efficiency (default RS,CRS).").build());
        spec.addOption(OptionSpec.builder("--leaf-park").type(String.class).paramLabel("MODE")
            .description("compensated (default): a leaf parks its time on average (the park ends early by how late parks wake); "
                + "plain: at least its time, as SimulatedLeaf.park.").build());
        spec.addOption(flag("--no-warm-up", "Skip the untimed warm-up run before the efficiency runs."));
        spec.addOption(OptionSpec.builder("--rtt-samples").type(int.class).paramLabel("N")
            .description("Timed round trips of each kind (default 50000).").build());
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("Timed runs per example and node count in --speedup (default 3).").build());
        spec.addOption(OptionSpec.builder("--base-port").type(int.class).paramLabel("PORT")
            .description("First UDP port of the nodes (default 21000, below the ephemeral range so the relay's sockets cannot take it; +500 steal RTT, +600 speedup).").build());
        return spec;
    }

    private static OptionSpec flag(final String name, final String description) {
        return OptionSpec.builder(name).type(boolean.class).arity("0").description(description).build();
    }
}
