package org.divvy.perf.sharing;

import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.RunResult;
import org.divvy.StealPolicy;
import org.divvy.examples.Check;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Launcher;
import org.divvy.examples.Problem;
import org.divvy.examples.Verdict;
import org.divvy.examples.barneshut.BarnesHutApp;
import org.divvy.examples.locusroute.LocusRouteApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.examples.tsp.TspApp;
import org.divvy.perf.BenchmarkSecret;
import org.divvy.perf.PerfFiles;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar divvy-perf.jar shared-traffic [--nodes 4] [--rounds 1] [--only sat,...] [--quick] [--out CSV]}: the thesis's Table
 * 5.5 (shared-object traffic) for the divide-and-share apps. Each app of {@link #APPS} runs in {@code --mode share}
 * on {@code --nodes} fresh networked nodes in this JVM (one worker each, real UDP on 127.0.0.1 through one embedded
 * media driver), once with write combining off ({@code sharedWriteCombiningMs} 0) and once with the app's own delay,
 * side by side; its answer must pass the app's check. Summed over the nodes, after the last combined writes went
 * out: shared-object invocations (writes made), broadcasts (SO_UPDATE frames built), broadcast messages (frames
 * times the peers that took them), broadcast bytes, the combining ratio (writes per frame), and the run's time.
 * Prints the table with the equivalent {@code bin/divvy run} command per row, writes a CSV and a PNG of the
 * messages beside it. Measurements only mean something on a quiet machine: run it under the machine's lock.
 */
public final class SharedTraffic {
    static final String DEFAULT_OUT = "perf/results/shared-traffic.csv";
    static final String HEADER = "app,combining_ms,writes,broadcasts,messages,bytes,combining_ratio,run_ms,check";

    /**
     * An application row: its id (for {@code --only}), its label, the write-combining delay it is meant to run
     * with (the app's {@code RECOMMENDED_COMBINING_MS}), and its launcher arguments (full size, and {@code --quick}
     * size).
     */
    record AppRow(String id, String label, long combiningMs, List<String> args, List<String> quickArgs) {
    }

    static final List<AppRow> APPS = List.of(
        new AppRow("sat", "SAT", SatApp.RECOMMENDED_COMBINING_MS, List.of("sat", "--mode", "share", "--instance", "uuf175-040"),
            List.of("sat", "--mode", "share", "--instance", "uuf100-01")),
        new AppRow("locusroute", "LocusRoute", LocusRouteApp.RECOMMENDED_COMBINING_MS, List.of("locusroute", "--mode", "share"),
            List.of("locusroute", "--mode", "share", "--small")),
        // gr24 without a first tour: the search lowers the bound some 18 times, on whichever nodes find the better
        // tours (fri26, ds-vs-dc's tsp-found, made one write: its first complete tour is already the optimum)
        new AppRow("tsp", "TSP", TspApp.RECOMMENDED_COMBINING_MS,
            List.of("tsp", "--mode", "share", "--instance", "gr24", "--no-first-tour", "--spawn-depth", "3"),
            List.of("tsp", "--mode", "share", "--random", "16", "--no-first-tour", "--spawn-depth", "2")),
        // ds-vs-dc's barneshut row: one write of all positions per step
        new AppRow("barneshut", "Barnes-Hut", BarnesHutApp.RECOMMENDED_COMBINING_MS,
            List.of("barneshut", "--mode", "share", "--bodies", "20000", "--steps", "5"),
            // quick: 4 steps, not 2: a write is shipped (and counted) only once the positions have travelled to another
            // node, and peers steal only after the run's RUN_STARTED reaches them, so a 2-step run of ~70 ms could end
            // before a job of it travelled (once in a full perf suite run)
            List.of("barneshut", "--mode", "share", "--bodies", "2000", "--steps", "4", "--leaf-bodies", "250")));

    /** The rows {@code only} names (comma-separated ids; empty: all), in {@link #APPS}'s order; empty if it names an unknown one. */
    static List<AppRow> selected(final String only) {
        if (only.isBlank()) {
            return APPS;
        }
        final List<String> ids = List.of(only.split(","));
        if (!ids.stream().allMatch(id -> APPS.stream().anyMatch(a -> a.id().equals(id)))) {
            return List.of();
        }
        return APPS.stream().filter(a -> ids.contains(a.id())).toList();
    }

    /** One measured run: the traffic summed over the nodes, the master's run time, the check's detail. */
    record Measurement(String app, long combiningMs, long writes, long broadcasts, long messages, long bytes, double runMs,
        String check) {
        double combiningRatio() {
            return broadcasts == 0 ? 0 : (double)writes / broadcasts;
        }
    }

    private SharedTraffic() {
    }

    /** Parses {@code args} (after the {@code shared-traffic} word) and runs; returns the exit code (0 ok, 1 failed, 2 usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("shared-traffic", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final boolean quick = parsed.hasMatchedOption("--quick");
        final int nodes = parsed.matchedOptionValue("--nodes", 4);
        final int rounds = parsed.matchedOptionValue("--rounds", 1);
        if (nodes < 2 || rounds < 1) {
            err.println("divvy-perf shared-traffic: --nodes=" + nodes + " (>= 2), --rounds=" + rounds + " (>= 1)");
            return 2;
        }
        final List<AppRow> apps = selected(parsed.matchedOptionValue("--only", ""));
        if (apps.isEmpty()) {
            err.println("divvy-perf shared-traffic: --only names none of " + APPS.stream().map(AppRow::id).toList());
            return 2;
        }
        final Path csvPath = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
        out.println("divvy-perf shared-traffic " + String.join(" ", args) + " | " + Runtime.getRuntime().availableProcessors()
            + " cores | load average at start " + PerfFiles.loadAverage());
        final List<Measurement> measurements = new ArrayList<>();
        try (MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new SleepingMillisIdleStrategy(1))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true))) {
            for (int round = 1; round <= rounds; round++) {
                for (final AppRow app : apps) {
                    for (final long combiningMs : new long[] {0, app.combiningMs()}) { // side by side, off first
                        final Measurement m = measure(driver, app, quick ? app.quickArgs() : app.args(), nodes, combiningMs);
                        measurements.add(m);
                        out.printf(Locale.ROOT, "round %d: %s, combining %d ms: %d writes, %d broadcasts, %d messages, %d bytes,"
                                + " ratio %.1f, run %.0f ms; %s%n", round, m.app(), m.combiningMs(), m.writes(), m.broadcasts(),
                            m.messages(), m.bytes(), m.combiningRatio(), m.runMs(), m.check());
                    }
                }
            }
        } catch (final RuntimeException ex) {
            err.println("divvy-perf shared-traffic: FAILED: " + ex);
            ex.printStackTrace(err);
            return 1;
        }
        out.println();
        out.println(table(measurements, quick, nodes));
        out.println("load average at the end " + PerfFiles.loadAverage());
        write(csvPath, measurements);
        chart(csvPath, apps, measurements, nodes);
        out.println("wrote " + csvPath + " and " + pngPath(csvPath));
        return 0;
    }

    /** One run of {@code app} on {@code count} fresh nodes with {@code combiningMs}; throws when its answer fails the check. */
    static Measurement measure(final MediaDriver driver, final AppRow app, final List<String> args, final int count,
        final long combiningMs) {
        final ExampleApp example = Launcher.parse(args.toArray(new String[0])).app();
        final Problem<?> problem = example.prepare();
        final List<DivvyNode> nodes = new ArrayList<>();
        try {
            final DivvyNode master = DivvyNode.start(config(driver, null, combiningMs));
            nodes.add(master);
            for (int i = 1; i < count; i++) {
                nodes.add(DivvyNode.start(config(driver, master.endpoint(), combiningMs)));
            }
            for (final DivvyNode node : nodes) {
                node.awaitMembers(count, Duration.ofSeconds(30));
            }
            final RunResult<?> run = master.run(problem.root());
            final Check check = checked(problem, run.value());
            if (check.verdict() == Verdict.FAIL) {
                throw new IllegalStateException(app.label() + " failed its check: " + check.detail());
            }
            // the last writes wait out the combining delay after the answer: count them too
            long before;
            long after = totalWrites(nodes);
            do {
                before = after;
                sleepMs(combiningMs + 200);
                after = totalWrites(nodes);
            } while (after != before);
            final SharingCounters sum = SharingCounters.sum(nodes);
            return new Measurement(app.label(), combiningMs, sum.writes(), sum.broadcasts(), sum.messages(), sum.bytes(),
                run.elapsedNs() / 1e6, check.detail());
        } finally {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Check checked(final Problem<T> problem, final Object answer) {
        return problem.check((T)answer);
    }

    private static long totalWrites(final List<DivvyNode> nodes) {
        final SharingCounters sum = SharingCounters.sum(nodes);
        return sum.writes() + sum.messages() + sum.writesReceived();
    }

    private static NodeConfig config(final MediaDriver driver, final String join, final long combiningMs) {
        return BenchmarkSecret.withSecret(NodeConfig.builder().workers(1).networked(true)
            .aeronDirectory(driver.aeronDirectoryName())
            .termLengthBytes(1 << 20)
            .site("A").join(join).policy(StealPolicy.RS)
            .sharedWriteCombiningMs(combiningMs)
            .build());
    }

    /** The table as README rows, with the command each row is. */
    static String table(final List<Measurement> measurements, final boolean quick, final int nodes) {
        final StringBuilder text = new StringBuilder()
            .append("| app | combining | shared-object invocations (writes) | broadcasts | broadcast messages | broadcast bytes"
                + " | combining ratio | run time | command |\n")
            .append("|---|---|---|---|---|---|---|---|---|\n");
        for (final Measurement m : measurements) {
            final AppRow app = APPS.stream().filter(a -> a.label().equals(m.app())).findFirst().orElseThrow();
            text.append(String.format(Locale.ROOT, "| %s | %s | %,d | %,d | %,d | %,d | %.1f | %.2f s | `bin/divvy run --nodes %d"
                    + " --workers 1 --shared-write-combining-ms %d %s` |%n", m.app(), m.combiningMs() == 0 ? "off"
                    : m.combiningMs() + " ms", m.writes(), m.broadcasts(), m.messages(), m.bytes(), m.combiningRatio(),
                m.runMs() / 1e3, nodes, m.combiningMs(), String.join(" ", quick ? app.quickArgs() : app.args())));
        }
        return text.toString();
    }

    private static void write(final Path path, final List<Measurement> measurements) {
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (final Measurement m : measurements) {
            lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%.2f,%.1f,\"%s\"", m.app(), m.combiningMs(), m.writes(),
                m.broadcasts(), m.messages(), m.bytes(), m.combiningRatio(), m.runMs(), m.check().replace('"', '\'')));
        }
        PerfFiles.writeLines(path, lines);
    }

    private static Path pngPath(final Path csvPath) {
        return csvPath.resolveSibling(csvPath.getFileName().toString().replaceFirst("\\.csv$", "") + ".png");
    }

    /** Broadcast messages per app, combining off and on (the last round's), on a log-free scale: thousands of messages. */
    private static void chart(final Path csvPath, final List<AppRow> apps, final List<Measurement> measurements,
        final int nodes) {
        final List<String> categories = new ArrayList<>();
        final double[] off = new double[apps.size()];
        final double[] on = new double[apps.size()];
        for (int i = 0; i < apps.size(); i++) {
            final AppRow app = apps.get(i);
            categories.add(app.label() + " (" + app.combiningMs() + " ms)");
            for (final Measurement m : measurements) {
                if (m.app().equals(app.label())) {
                    (m.combiningMs() == 0 ? off : on)[i] = m.messages() / 1e3;
                }
            }
        }
        new GroupedBarChart("Shared-object broadcast messages, " + nodes + " nodes, with and without write combining",
            "thousands of SO_UPDATE messages (frames x peers), summed over the nodes; Table 5.5 of the thesis",
            "thousand messages", categories,
            List.of(new BarSeries("combining off", new Color(0xd62728), off),
                new BarSeries("the app's combining delay", new Color(0x2ca02c), on)), Double.NaN)
            .writePng(pngPath(csvPath));
    }

    private static void sleepMs(final long ms) {
        try {
            Thread.sleep(ms);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }


    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf shared-traffic");
        spec.usageMessage().description("Table 5.5: shared-object writes, broadcasts, messages, bytes, combining ratio and "
            + "run time of each divide-and-share app, write combining off and at the app's delay, side by side.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).arity("0")
            .description("Small instances: a smoke test; the numbers mean little.").build());
        spec.addOption(OptionSpec.builder("--nodes").type(int.class).paramLabel("N")
            .description("Nodes in this JVM, one worker each (default 4).").build());
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("Times each app runs with combining off and on, alternating (default 1).").build());
        spec.addOption(OptionSpec.builder("--only").type(String.class).paramLabel("APPS")
            .description("Comma-separated rows: " + String.join(", ", APPS.stream().map(AppRow::id).toList())
                + " (default: all).").build());
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("CSV (default " + DEFAULT_OUT + "); <name>.png goes beside it.").build());
        return spec;
    }
}
