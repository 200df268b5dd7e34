package org.divvy.perf.uts;

import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.divvy.examples.uts.Counts;
import org.divvy.examples.uts.UtsTree;
import org.divvy.perf.PerfFiles;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar divvy-perf.jar uts [--kernel] [--speedup] [--memory] [--control] [--quick] [--rounds N]
 * [--warmup-runs N] [--out CSV]}: the UTS rows of issue 10 side by side in one run, each printed with the command that
 * reproduces it, one CSV plus a PNG per section beside it. No section flag = the first three ({@code --control}, the
 * machine's bound for the speedup row, only when asked: {@link MachineControl}):
 * <ul>
 *   <li>kernel: {@code uts -t 1 -a 3 -d 12 -b 4 -r 19} (66,106,929 nodes) on one core, sequential and one Divvy
 *       worker, M nodes/s (target 25);</li>
 *   <li>speedup: the same tree with {@code -d 13} (264,459,392 nodes), {@code divvy run --nodes 2 --workers 1} against
 *       {@code --nodes 1}, node 0's wall time (no JVM start-up, no joining) of the run after {@value #SPEEDUP_WARMUP_RUNS}
 *       warm-up runs of the same tree on the same nodes, and of the first run, alternating runs, medians (target 1.9),
 *       with the CPU other processes used during each timed run;</li>
 *   <li>memory: {@code divvy run --nodes 4 --workers 1} on the {@code -d 12} tree, every node process's peak RSS
 *       (target 192 MiB) and its RSS once all joined (idle; target 128 MiB).</li>
 * </ul>
 * Measurements only mean something on a machine with nothing else running: run it under the machine's lock.
 */
public final class UtsMain {
    static final String DEFAULT_OUT = "perf/results/uts.csv";
    static final String HEADER = "section,case,metric,value,unit,note";
    private static final double KERNEL_TARGET_M_NODES_PER_S = 25;
    private static final double SPEEDUP_TARGET = 1.9;
    /**
     * Warm-up runs before the speedup row's timed run. Three: in a 2-node run each node runs about 6,500 jobs per run,
     * so its per-job methods ({@code Uts.search} with the kernel inlined) reach C2's thresholds only after two runs:
     * after one, C2 compiled them during the timed run for 0.3-0.85 s of CPU per node; after two, node 0 still
     * compiled {@code Uts.search} during it (81-536 ms of compiler CPU per timed run, ~0.4 s of wall time for that one
     * method); after three, 60-130 ms in most runs, 257 and 582 ms in two (perf/README.md, "2 nodes vs 1: who takes the
     * workers' cores, and the third warm-up run"). A 1-node run compiles them in its first run, on its idle second
     * core; a 2-node run does it on a worker's. Each timed run prints what its compilers still used.
     */
    static final int SPEEDUP_WARMUP_RUNS = 3;
    private static final double PEAK_RSS_TARGET_MIB = 192;
    private static final double CONTROL_WARMUP_S = 3;
    private static final double CONTROL_WINDOW_S = 5;

    private UtsMain() {
    }

    /** Parses {@code args} (after the {@code uts} word) and runs; returns the exit code (0 ok, 1 failed, 2 usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("uts", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final boolean quick = parsed.hasMatchedOption("--quick");
        boolean kernel = parsed.hasMatchedOption("--kernel");
        boolean speedup = parsed.hasMatchedOption("--speedup");
        boolean memory = parsed.hasMatchedOption("--memory");
        final boolean control = parsed.hasMatchedOption("--control");
        if (!kernel && !speedup && !memory && !control) {
            kernel = true;
            speedup = true;
            memory = true;
        }
        final int rounds = parsed.matchedOptionValue("--rounds", quick ? 1 : 3);
        final int warmupRuns = parsed.matchedOptionValue("--warmup-runs", SPEEDUP_WARMUP_RUNS);
        if (warmupRuns < 1) {
            err.println("divvy-perf uts: --warmup-runs=" + warmupRuns + ", must be >= 1");
            return 2;
        }
        if (rounds < 1) {
            err.println("divvy-perf uts: --rounds=" + rounds + ", must be >= 1");
            return 2;
        }
        final Path csvPath = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
        final int depth = quick ? 8 : 12;
        final int bigDepth = quick ? 9 : 13;
        final int nodes = quick ? 2 : 4;
        final double deadlineS = quick ? 120 : 600;
        final List<String> csv = new ArrayList<>();
        final List<String> summary = new ArrayList<>();
        out.println("divvy-perf uts " + String.join(" ", args) + " | " + Runtime.getRuntime().availableProcessors()
            + " cores | load average at start " + PerfFiles.loadAverage());
        try {
            if (kernel) {
                final UtsTree tree = geometric(depth);
                final KernelRate.Result r = KernelRate.measure(tree, 6, quick ? 0 : 2, quick ? 1 : 2 * rounds + 1, out);
                final String note = r.counts().nodes() + " nodes; in one JVM; median after warm-up";
                add(csv, "kernel", "sequential", "first_run", r.sequentialFirst() / 1e6, "M nodes/s", "JIT compiling");
                add(csv, "kernel", "sequential", "median", r.sequentialMedian() / 1e6, "M nodes/s", note);
                add(csv, "kernel", "divvy-1-worker", "first_run", r.divvyFirst() / 1e6, "M nodes/s", "JIT compiling");
                add(csv, "kernel", "divvy-1-worker", "median", r.divvyMedian() / 1e6, "M nodes/s", note);
                add(csv, "kernel", "sequential", "min", KernelRate.min(r.sequentialRounds()) / 1e6, "M nodes/s", "slowest timed run");
                add(csv, "kernel", "sequential", "max", KernelRate.max(r.sequentialRounds()) / 1e6, "M nodes/s", "fastest timed run");
                add(csv, "kernel", "divvy-1-worker", "min", KernelRate.min(r.divvyRounds()) / 1e6, "M nodes/s", "slowest timed run");
                add(csv, "kernel", "divvy-1-worker", "max", KernelRate.max(r.divvyRounds()) / 1e6, "M nodes/s", "fastest timed run");
                summary.add(String.format(Locale.ROOT, "UTS kernel, one core, %s: sequential %.1f, Divvy 1 worker %.1f M nodes/s "
                        + "(first runs %.1f / %.1f) | target >= %.0f | java -jar perf/target/divvy-perf.jar uts --kernel; "
                        + "cold: bin/divvy uts %s --workers 1 [--sequential]",
                    tree.flags(), r.sequentialMedian() / 1e6, r.divvyMedian() / 1e6, r.sequentialFirst() / 1e6,
                    r.divvyFirst() / 1e6, KERNEL_TARGET_M_NODES_PER_S, tree.flags()));
                chart(csvPath, "kernel", "UTS kernel on one core, -d " + depth + " (" + r.counts().nodes() + " nodes)",
                    "the JDK's SHA-1; first run (JIT compiling) and median after warm-up; target >= 25 M nodes/s",
                    "M nodes/s", List.of("first run", "median after warm-up"),
                    List.of(new BarSeries("sequential", new Color(0x1f77b4), new double[] {r.sequentialFirst() / 1e6,
                            r.sequentialMedian() / 1e6}),
                        new BarSeries("Divvy, 1 worker", new Color(0x2ca02c), new double[] {r.divvyFirst() / 1e6,
                            r.divvyMedian() / 1e6})), KERNEL_TARGET_M_NODES_PER_S);
            }
            if (speedup) {
                final UtsTree tree = geometric(bigDepth);
                final double[] oneWall = new double[rounds];
                final double[] twoWall = new double[rounds];
                final double[] oneFirst = new double[rounds];
                final double[] twoFirst = new double[rounds];
                final double[] oneRun = new double[rounds];
                final double[] twoRun = new double[rounds];
                final double[] oneOther = new double[rounds];
                final double[] twoOther = new double[rounds];
                final double[] oneCompiler = new double[rounds];
                final double[] twoCompiler = new double[rounds];
                Counts counts = null;
                for (int i = 0; i < rounds; i++) {
                    for (final int n : new int[] {1, 2}) {
                        final NodeRun.Result r = NodeRun.run(speedupArgs(n, tree, warmupRuns), deadlineS);
                        if (counts != null && !counts.equals(r.counts())) {
                            throw new IllegalStateException(r.command() + " counted " + r.counts() + ", an earlier run " + counts);
                        }
                        counts = r.counts();
                        if (Double.isNaN(r.firstWallS())) {
                            throw new IllegalStateException(r.command() + " printed no line for its warm-up run");
                        }
                        (n == 1 ? oneWall : twoWall)[i] = r.wallS();
                        (n == 1 ? oneFirst : twoFirst)[i] = r.firstWallS();
                        (n == 1 ? oneRun : twoRun)[i] = r.masterRunMs() / 1e3;
                        (n == 1 ? oneOther : twoOther)[i] = r.otherCores();
                        (n == 1 ? oneCompiler : twoCompiler)[i] = r.compilerMs();
                        out.printf(Locale.ROOT, "speedup round %d: %s: wall %.3f s after the warm-up runs (the first run's %.3f s), "
                            + "master's run %.3f s; other processes' CPU during the timed run %.2f cores; the nodes' JIT "
                            + "compilers during it %.0f ms%n", i + 1, r.command(),
                            r.wallS(), r.firstWallS(), r.masterRunMs() / 1e3, r.otherCores(), r.compilerMs());
                    }
                }
                final double wallRatio = KernelRate.median(oneWall) / KernelRate.median(twoWall);
                final double firstRatio = KernelRate.median(oneFirst) / KernelRate.median(twoFirst);
                final double runRatio = KernelRate.median(oneRun) / KernelRate.median(twoRun);
                final String note = counts.nodes() + " nodes; separate processes; timed run after " + warmupRuns
                    + " warm-up run(s) on the same nodes; medians of " + rounds;
                add(csv, "speedup", "1-node-1-worker", "wall", KernelRate.median(oneWall), "s", note);
                add(csv, "speedup", "2-nodes-1-worker", "wall", KernelRate.median(twoWall), "s", note);
                add(csv, "speedup", "1-node-1-worker", "first_wall", KernelRate.median(oneFirst), "s", "the warm-up run: JIT compiling");
                add(csv, "speedup", "2-nodes-1-worker", "first_wall", KernelRate.median(twoFirst), "s", "the warm-up run: JIT compiling");
                add(csv, "speedup", "ratio", "wall", wallRatio, "ratio", note);
                final double[] roundRatios = new double[rounds];
                for (int i = 0; i < rounds; i++) {
                    roundRatios[i] = oneWall[i] / twoWall[i];
                }
                add(csv, "speedup", "ratio", "wall_round_min", KernelRate.min(roundRatios), "ratio",
                    "the lowest of the rounds' own ratios (each round: its 1-node run / its 2-node run)");
                add(csv, "speedup", "ratio", "wall_round_max", KernelRate.max(roundRatios), "ratio",
                    "the highest of the rounds' own ratios");
                add(csv, "speedup", "ratio", "first_wall", firstRatio, "ratio", "the warm-up run: JIT compiling");
                add(csv, "speedup", "ratio", "master_run", runRatio, "ratio", note);
                add(csv, "speedup", "1-node-1-worker", "other_cpu", KernelRate.median(oneOther), "cores",
                    "CPU of other processes during the timed run");
                add(csv, "speedup", "2-nodes-1-worker", "other_cpu", KernelRate.median(twoOther), "cores",
                    "CPU of other processes during the timed run");
                add(csv, "speedup", "1-node-1-worker", "compiler_cpu", KernelRate.median(oneCompiler), "ms",
                    "CPU of the nodes' JIT compiler threads during the timed run");
                add(csv, "speedup", "2-nodes-1-worker", "compiler_cpu", KernelRate.median(twoCompiler), "ms",
                    "CPU of the nodes' JIT compiler threads during the timed run");
                summary.add(String.format(Locale.ROOT, "UTS %s, 2 nodes x 1 worker / 1 node x 1 worker, node 0's wall time of the run "
                        + "after %d warm-up run(s) on the same nodes: %.2f (wall %.2f s / %.2f s; master's run %.2f; the first "
                        + "runs %.2f: %.2f s / %.2f s; other processes' CPU during the timed runs, medians: %.2f / %.2f cores; the nodes' JIT "
                        + "compilers during them: %.0f / %.0f ms) "
                        + "| target >= %.1f | %s vs --nodes 1",
                    tree.flags(), warmupRuns, wallRatio, KernelRate.median(oneWall), KernelRate.median(twoWall), runRatio, firstRatio,
                    KernelRate.median(oneFirst), KernelRate.median(twoFirst), KernelRate.median(oneOther),
                    KernelRate.median(twoOther), KernelRate.median(oneCompiler), KernelRate.median(twoCompiler), SPEEDUP_TARGET,
                    "bin/divvy " + String.join(" ", speedupArgs(2, tree, warmupRuns))));
                chart(csvPath, "speedup", "UTS -d " + bigDepth + ": 2 node processes x 1 worker vs 1 x 1",
                    "speedup (1-node time / 2-node time), medians of " + rounds + " alternating runs; target >= 1.9",
                    "speedup", List.of("wall time (node 0), after " + warmupRuns + " warm-up run(s)", "the master's run",
                        "first run (JIT compiling)"),
                    List.of(new BarSeries("2 nodes vs 1", new Color(0x9467bd), new double[] {wallRatio, runRatio, firstRatio})),
                    SPEEDUP_TARGET);
            }
            if (control) {
                final double warmupS = quick ? 1 : CONTROL_WARMUP_S;
                final double windowS = quick ? 2 : CONTROL_WINDOW_S;
                final List<String> kinds = List.of("sequential", "divvy", "sha1", "int");
                final double[] ratios = new double[kinds.size()];
                for (int k = 0; k < kinds.size(); k++) {
                    final MachineControl.Result r = MachineControl.measure(kinds.get(k), rounds, warmupS, windowS, out);
                    ratios[k] = r.ratio();
                    final String note = "separate JVMs; " + windowS + " s window after " + warmupS + " s warm-up; medians of " + rounds;
                    add(csv, "control", r.kind(), "alone", r.alone() / 1e6, "M units/s", note);
                    add(csv, "control", r.kind(), "each_of_two", r.together() / 1e6, "M units/s", note);
                    add(csv, "control", r.kind(), "ratio", r.ratio(), "ratio", note);
                    summary.add(String.format(Locale.ROOT, "control, %s in 2 JVMs at once / 1 alone, no network: %.2f (alone %.1f, "
                            + "each of two %.1f M units/s; rounds %s) | the machine's bound for the 2-node row | "
                            + "java -jar perf/target/divvy-perf.jar uts --control", r.kind(), r.ratio(), r.alone() / 1e6,
                        r.together() / 1e6, format2(r.ratios())));
                }
                chart(csvPath, "control", "Two copies in separate JVMs at once vs one alone (no network)",
                    "summed rate of two / rate of one, medians of " + rounds + " alternating rounds; the 2-node row's target 1.9",
                    "ratio", List.of("UTS sequential", "UTS 1 Divvy worker", "SHA-1 loop", "integer loop"),
                    List.of(new BarSeries("2 at once / 1 alone", new Color(0x8c564b), ratios)), SPEEDUP_TARGET);
            }
            if (memory) {
                final UtsTree tree = geometric(depth);
                final NodeRun.Result r = NodeRun.run(runArgs(nodes, tree), deadlineS);
                final List<String> names = new ArrayList<>();
                for (int i = 0; i < r.peakRssMiB().size(); i++) {
                    names.add("node " + i);
                    add(csv, "memory", "node-" + i, "peak_rss", r.peakRssMiB().get(i), "MiB", "VmHWM; " + r.counts().nodes() + " nodes");
                    add(csv, "memory", "node-" + i, "idle_rss", r.idleRssMiB().get(i), "MiB", "VmRSS once all joined");
                }
                final double peak = r.peakRssMiB().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                final double idle = r.idleRssMiB().stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
                summary.add(String.format(Locale.ROOT, "peak RSS of a node process, %d nodes x 1 worker, %s: at most %.0f MiB "
                        + "(each: %s); idle once joined: at most %.0f MiB | target <= %.0f, idle <= 128 | %s",
                    r.peakRssMiB().size(), tree.flags(), peak, format(r.peakRssMiB()), idle, PEAK_RSS_TARGET_MIB, r.command()));
                chart(csvPath, "memory", "Resident memory of each node process, " + nodes + " nodes x 1 worker, UTS -d " + depth,
                    "VmHWM over the run, and VmRSS once all nodes joined; target peak <= 192 MiB, idle <= 128 MiB",
                    "MiB", names,
                    List.of(new BarSeries("peak RSS (VmHWM)", new Color(0xd62728), toArray(r.peakRssMiB())),
                        new BarSeries("RSS once joined", new Color(0x7f7f7f), toArray(r.idleRssMiB()))),
                    PEAK_RSS_TARGET_MIB);
            }
            write(csvPath, csv);
            out.println();
            out.println("row | measured | target | command");
            summary.forEach(out::println);
            out.println("wrote " + csvPath + " (" + csv.size() + " rows) | load average at end " + PerfFiles.loadAverage());
            return 0;
        } catch (final RuntimeException ex) {
            err.println("divvy-perf uts: FAILED: " + ex.getMessage());
            write(csvPath, csv);
            return 1;
        }
    }

    /** The geometric fixed-shape tree of T1 ({@code -t 1 -a 3 -b 4 -r 19}) at target depth {@code depth}. */
    static UtsTree geometric(final int depth) {
        return new UtsTree(UtsTree.GEOMETRIC, UtsTree.FIXED, depth, 4, 19, 0.0, 0, 0.5);
    }

    /**
     * The speedup row's run: {@link #runArgs} with {@code warmupRuns} warm-up runs of the same tree on the same
     * nodes before the timed one, so the timed run measures the computation and not the JVMs' JIT compilers, which
     * during a JVM's first seconds of work take the cores the 2-node run's workers need.
     */
    private static List<String> speedupArgs(final int nodes, final UtsTree tree, final int warmupRuns) {
        final List<String> args = runArgs(nodes, tree);
        args.addAll(args.indexOf("uts"), List.of("--warmup-runs", Integer.toString(warmupRuns)));
        return args;
    }

    private static List<String> runArgs(final int nodes, final UtsTree tree) {
        final List<String> args = new ArrayList<>(List.of("run", "--nodes", Integer.toString(nodes), "--workers", "1", "uts"));
        args.addAll(List.of(tree.flags().split(" ")));
        return args;
    }

    private static void add(final List<String> csv, final String section, final String caseName, final String metric,
        final double value, final String unit, final String note) {
        csv.add(String.join(",", section, caseName, metric, String.format(Locale.ROOT, "%.4f", value), unit,
            "\"" + note + "\""));
    }

    private static void write(final Path path, final List<String> rows) {
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        lines.addAll(rows);
        PerfFiles.writeLines(path, lines);
    }

    private static void chart(final Path csvPath, final String section, final String title, final String subtitle,
        final String yAxis, final List<String> categories, final List<BarSeries> series, final double reference) {
        final String name = csvPath.getFileName().toString().replaceFirst("\\.csv$", "");
        new GroupedBarChart(title, subtitle, yAxis, categories, series, reference)
            .writePng(csvPath.resolveSibling(name + "-" + section + ".png"));
    }

    private static double[] toArray(final List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String format(final List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).reduce((a, b) -> a + ", " + b).orElse("");
    }


    private static String format2(final double[] values) {
        final List<String> shown = new ArrayList<>();
        for (final double v : values) {
            shown.add(String.format(Locale.ROOT, "%.2f", v));
        }
        return String.join(", ", shown);
    }

    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf uts");
        spec.usageMessage().description("The UTS rows: the kernel on one core, 2 node processes vs 1, the memory of "
            + "each node process. No section flag = those three; --control only when asked.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(flag("--kernel", "The kernel's rate on one core, sequential and one Divvy worker (-d 12)."));
        spec.addOption(flag("--speedup", "divvy run --nodes 2 vs --nodes 1, one worker each (-d 13)."));
        spec.addOption(flag("--memory", "Peak and idle RSS of every node process of divvy run --nodes 4 (-d 12)."));
        spec.addOption(flag("--control", "The machine's bound: the kernel, a SHA-1 loop and an integer loop, 2 JVMs "
            + "at once vs 1 alone, no network (not in the default set; about 20 s a round per kind)."));
        spec.addOption(flag("--quick", "Tiny trees (-d 8 and 9, 2 nodes): a smoke test; the numbers mean nothing."));
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("Alternating runs per node count in --speedup (default 3); --kernel times 2N+1 of each.").build());
        spec.addOption(OptionSpec.builder("--warmup-runs").type(int.class).paramLabel("N")
            .description("Warm-up runs on the same nodes before --speedup's timed run (default " + SPEEDUP_WARMUP_RUNS
                + ": after one, C2 still compiles the per-job methods during the timed run).").build());
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("CSV (default " + DEFAULT_OUT + "); <name>-<section>.png go beside it.").build());
        return spec;
    }

    private static OptionSpec flag(final String name, final String description) {
        return OptionSpec.builder(name).type(boolean.class).arity("0").description(description).build();
    }
}
