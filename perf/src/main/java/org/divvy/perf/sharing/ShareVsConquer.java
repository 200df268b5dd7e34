package org.divvy.perf.sharing;

import java.awt.Color;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.locusroute.LocusRouteApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.perf.PerfFiles;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code divvy-perf ds-vs-dc}: divide and share against the best pure divide-and-conquer version of the same app, as
 * Satin++'s Fig. 3 compares them, on 1 node and on 4 nodes (real processes: {@code divvy APP} for one node,
 * {@code divvy run --nodes 4} for four, one worker each). Every round runs every (app, nodes, mode) once, rounds
 * interleaved and the two modes' order alternating between rounds, so both see the same machine; each run's answer
 * must pass its check (or, with no reference, as for a random TSP beyond Held-Karp, equal every other run's answer). Prints and writes the wall times (medians), the ratio conquer ÷ share (above 1: sharing is
 * faster), a CSV of every run and a PNG of the ratios.
 *
 * <p>The apps are a list of {@link AppRow}s, each selecting its modes with {@code --mode conquer} and
 * {@code --mode share}. Most apps have one right answer, which every run of a row must give (the app's describe
 * line, compared across modes and node counts); LocusRoute's answer is a routing whose quality legitimately differs
 * between runs (the shared version sees other nodes' wires late, at times that differ from run to run), so its row
 * compares nothing across runs and requires instead that every run PASS the app's own check (congestion within
 * its stated bound of the sequential router's).
 */
public final class ShareVsConquer {
    static final String DEFAULT_OUT = "perf/results/ds-vs-dc.csv";
    private static final String LAUNCHER = "org.divvy.examples.Launcher";
    private static final Pattern WALL = Pattern.compile("^wall time: ([0-9.]+) s");
    /** The answer line, {@code tsp [divvy, 4 nodes, ...]: shortest tour 6250 ...}: compared across modes and nodes. */
    private static final Pattern ANSWER = Pattern.compile("^[a-z]+ \\[[^\\]]*\\]: (.*)$");
    private static final List<String> MODES = List.of("conquer", "share");

    /** How the runs of one row must agree. */
    public enum Answers {
        /** One right answer: every run's answer line must equal every other's (and PASS or, with no reference, be UNCHECKED). */
        SAME,
        /**
         * An answer that legitimately differs between runs (a quality within a bound): nothing is compared across
         * runs, every run must PASS the app's own check (UNCHECKED fails the section).
         */
        CHECKED
    }

    /**
     * One app of the comparison.
     *
     * @param name       its label in tables and the chart
     * @param what       one line: what the two versions pass or share
     * @param args       the app and its options, without {@code --mode}
     * @param quick      the same at a size where a run takes a fraction of a second (a smoke test)
     * @param runOptions node options given to {@code divvy run} on more than one node, both modes alike (the
     *                   write-combining delay the shared version is meant for); none on one node
     * @param answers    how the runs' answers must agree
     */
    public record AppRow(String name, String what, List<String> args, List<String> quick, List<String> runOptions,
        Answers answers) {
        /** A row with one right answer and the nodes' default settings. */
        public AppRow(final String name, final String what, final List<String> args, final List<String> quick) {
            this(name, what, args, quick, List.of(), Answers.SAME);
        }
    }

    /**
     * The apps compared. TSP twice: without a first tour the bound must be found by the search, which is where
     * sharing it matters (Satin++'s TSP); with the 2-opt tour (usually optimal already) both versions mostly prove
     * it, the case where sharing should cost nothing.
     */
    static final List<AppRow> APPS = List.of(
        new AppRow("tsp-found", "tsp fri26, no first tour, spawn depth 3: bound passed down vs shared",
            List.of("tsp", "--instance", "fri26", "--no-first-tour", "--spawn-depth", "3"),
            List.of("tsp", "--random", "16", "--no-first-tour", "--spawn-depth", "2")),
        new AppRow("tsp-known", "tsp random 54 cities, 2-opt first tour, spawn depth 6: bound passed down vs shared",
            List.of("tsp", "--random", "54", "--seed", "42"),
            List.of("tsp", "--random", "30")),
        new AppRow("barneshut", "barneshut 20,000 bodies, 5 steps, leaves of 1,000: tree in every job vs shared positions",
            List.of("barneshut", "--bodies", "20000", "--steps", "5"),
            List.of("barneshut", "--bodies", "2000", "--steps", "2", "--leaf-bodies", "250")),
        new AppRow("sat-sat", "sat random 3-SAT, 230 variables, seed 2 (satisfiable), 16 cubes: learned clauses passed down, "
            + "the first model aborts the rest vs a shared solution flag, conflict budget and short learned clauses "
            + "(combining " + SatApp.RECOMMENDED_COMBINING_MS + " ms)",
            List.of("sat", "--random", "230", "--seed", "2"),
            List.of("sat", "--instance", "uf100-01"),
            combining(SatApp.RECOMMENDED_COMBINING_MS), Answers.SAME),
        new AppRow("sat-unsat", "sat random 3-SAT, 230 variables, seed 1 (unsatisfiable: every cube searched), 16 cubes: "
            + "as sat-sat",
            List.of("sat", "--random", "230", "--seed", "1"),
            List.of("sat", "--instance", "uuf100-01"),
            combining(SatApp.RECOMMENDED_COMBINING_MS), Answers.SAME),
        new AppRow("locusroute", "locusroute 40,000 wires on 400x400, 3 iterations: groups against the phase's start "
            + "cost array vs a shared cost array written per wire (combining " + LocusRouteApp.RECOMMENDED_COMBINING_MS
            + " ms); answers differ, each checked against the sequential router",
            List.of("locusroute"),
            List.of("locusroute", "--small"),
            combining(LocusRouteApp.RECOMMENDED_COMBINING_MS), Answers.CHECKED));

    private static List<String> combining(final long ms) {
        return List.of("--shared-write-combining-ms", String.valueOf(ms));
    }

    private ShareVsConquer() {
    }

    /** One run's outcome. */
    record Sample(String app, int nodes, String mode, int round, double wallSeconds, String verdict, String answer) {
    }

    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("ds-vs-dc", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final boolean quick = parsed.hasMatchedOption("--quick");
        final int rounds = parsed.matchedOptionValue("--rounds", quick ? 1 : 3);
        final Path csv = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
        final int timeoutSeconds = parsed.matchedOptionValue("--timeout-seconds", 120);
        final List<String> only = Arrays.asList(parsed.matchedOptionValue("--only", "").split(","));
        final List<AppRow> apps = APPS.stream().filter(a -> only.equals(List.of("")) || only.contains(a.name())).toList();
        if (apps.isEmpty() || rounds < 1) {
            err.println("divvy-perf ds-vs-dc: --only names none of " + APPS.stream().map(AppRow::name).toList()
                + ", or --rounds < 1");
            return 2;
        }
        final int[] nodeCounts = {1, 4};
        out.println("divvy-perf ds-vs-dc: " + String.join(" ", args) + " (rounds " + rounds + ", nodes 1 and 4, 1 worker "
            + "each; " + Runtime.getRuntime().availableProcessors() + " cores)");
        final List<Sample> samples = new ArrayList<>();
        try {
            for (int round = 1; round <= rounds; round++) {
                for (final AppRow app : apps) {
                    for (final int nodes : nodeCounts) {
                        final List<String> modes = round % 2 == 1 ? MODES : List.of(MODES.get(1), MODES.get(0));
                        for (final String mode : modes) {
                            final Sample sample = runOnce(app, quick, nodes, mode, round, timeoutSeconds);
                            out.printf(Locale.ROOT, "round %d  %-10s %d node(s)  %-7s  %8.3f s  %s   %s%n", round,
                                app.name(), nodes, mode, sample.wallSeconds(), sample.verdict(),
                                shown(command(app, quick, nodes, mode, timeoutSeconds)));
                            if (app.answers() == Answers.CHECKED && !sample.verdict().equals("PASS")) {
                                throw new IllegalStateException(app.name() + ": " + mode + " on " + nodes
                                    + " node(s) was not checked (" + sample.verdict() + "): its answer differs between "
                                    + "runs, so only the app's check can judge it");
                            }
                            for (final Sample earlier : samples) { // the same input must give the same answer
                                if (app.answers() == Answers.SAME && earlier.app().equals(app.name())
                                    && !earlier.answer().equals(sample.answer())) {
                                    throw new IllegalStateException(app.name() + ": " + mode + " on " + nodes
                                        + " node(s) answered '" + sample.answer() + "', " + earlier.mode() + " on "
                                        + earlier.nodes() + " '" + earlier.answer() + "'");
                                }
                            }
                            samples.add(sample);
                        }
                    }
                }
            }
        } catch (final IOException | InterruptedException | IllegalStateException ex) {
            err.println("divvy-perf ds-vs-dc: FAILED: " + ex.getMessage());
            return 1;
        }
        report(apps, nodeCounts, samples, csv, quick, out);
        return 0;
    }

    /** The command line of one run: {@code divvy APP --mode M} on 1 node, {@code divvy run --nodes N ...} on more. */
    static List<String> command(final AppRow app, final boolean quick, final int nodes, final String mode,
        final int timeoutSeconds) {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "-XX:+UseSerialGC", "-cp",
            System.getProperty("java.class.path"), LAUNCHER));
        if (nodes > 1) {
            command.addAll(List.of("run", "--nodes", String.valueOf(nodes), "--workers", "1", "--timeout-seconds",
                String.valueOf(timeoutSeconds)));
            command.addAll(app.runOptions());
        }
        command.addAll(quick ? app.quick() : app.args());
        command.addAll(List.of("--mode", mode, "--progress-seconds", "0"));
        if (nodes == 1) {
            command.addAll(List.of("--workers", "1"));
        }
        return command;
    }

    /** A run's command as a user types it: {@code bin/divvy ...} (the JVM, its options and class path left out). */
    static String shown(final List<String> command) {
        return "bin/divvy " + String.join(" ", command.subList(command.indexOf(LAUNCHER) + 1, command.size()));
    }

    private static Sample runOnce(final AppRow app, final boolean quick, final int nodes, final String mode, final int round,
        final int timeoutSeconds) throws IOException, InterruptedException {
        final List<String> command = command(app, quick, nodes, mode, timeoutSeconds);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final List<String> lines = new ArrayList<>();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            } catch (final IOException e) {
                // the process is gone
            }
        }, "ds-vs-dc-output");
        reader.setDaemon(true);
        reader.start();
        if (!process.waitFor(timeoutSeconds + 30L, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException(app.name() + " " + mode + " on " + nodes + " node(s) did not end within "
                + (timeoutSeconds + 30) + " s: " + String.join(" ", command));
        }
        reader.join(5000);
        double wall = Double.NaN;
        String verdict = "?";
        String answer = "?";
        synchronized (lines) {
            for (final String line : lines) {
                final Matcher a = ANSWER.matcher(line);
                if (a.find()) {
                    answer = a.group(1);
                }
                final Matcher m = WALL.matcher(line);
                if (m.find()) {
                    wall = Double.parseDouble(m.group(1));
                }
                for (final String word : List.of("PASS", "FAIL", "UNCHECKED")) {
                    if (line.startsWith(word + ":")) {
                        verdict = word;
                    }
                }
            }
            if (process.exitValue() != 0 || Double.isNaN(wall) || verdict.equals("FAIL") || verdict.equals("?")) {
                throw new IllegalStateException(app.name() + " " + mode + " on " + nodes + " node(s) failed (exit "
                    + process.exitValue() + "): " + String.join(" ", command) + "\n" + String.join("\n", lines));
            }
        }
        return new Sample(app.name(), nodes, mode, round, wall, verdict, answer);
    }

    static double median(final List<Double> values) {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static List<Double> walls(final List<Sample> samples, final String app, final int nodes, final String mode) {
        return samples.stream().filter(s -> s.app().equals(app) && s.nodes() == nodes && s.mode().equals(mode))
            .map(Sample::wallSeconds).toList();
    }

    private static void report(final List<AppRow> apps, final int[] nodeCounts, final List<Sample> samples, final Path csv,
        final boolean quick, final PrintStream out) {
        final List<String> summary = new ArrayList<>(List.of("app,nodes,conquer_median_s,share_median_s,conquer_over_share,"
            + "conquer_runs_s,share_runs_s"));
        final List<String> categories = new ArrayList<>();
        final List<Double> ratios = new ArrayList<>();
        out.println();
        out.println("| app | nodes | conquer (median s) | share (median s) | conquer ÷ share | runs conquer / share (s) |");
        out.println("|---|---|---|---|---|---|");
        for (final AppRow app : apps) {
            for (final int nodes : nodeCounts) {
                final List<Double> conquer = walls(samples, app.name(), nodes, "conquer");
                final List<Double> share = walls(samples, app.name(), nodes, "share");
                final double ratio = median(conquer) / median(share);
                out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.2f | %s / %s |%n", app.name(), nodes, median(conquer),
                    median(share), ratio, format(conquer), format(share));
                summary.add(String.format(Locale.ROOT, "%s,%d,%.3f,%.3f,%.3f,%s,%s", app.name(), nodes, median(conquer),
                    median(share), ratio, format(conquer).replace(", ", ";"), format(share).replace(", ", ";")));
                categories.add(app.name() + ", " + nodes + (nodes == 1 ? " node" : " nodes"));
                ratios.add(ratio);
            }
        }
        for (final AppRow app : apps) {
            out.println(app.name() + ": " + app.what());
        }
        final List<String> rows = new ArrayList<>(List.of("app,nodes,mode,round,wall_s,verdict,answer"));
        for (final Sample s : samples) {
            rows.add(String.format(Locale.ROOT, "%s,%d,%s,%d,%.3f,%s,\"%s\"", s.app(), s.nodes(), s.mode(), s.round(),
                s.wallSeconds(), s.verdict(), s.answer().replace('"', '\'')));
        }
        final String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
        PerfFiles.writeLines(csv, summary);
        PerfFiles.writeLines(csv.resolveSibling(name + "-samples.csv"), rows);
        final Path png = csv.resolveSibling(name + ".png");
        new GroupedBarChart("Divide and share vs divide and conquer (Satin++ Fig. 3)",
            (quick ? "--quick (sizes too small to mean anything); " : "") + "median wall time of conquer ÷ share, "
                + "1 worker per node; above 1: sharing is faster",
            "conquer ÷ share", categories, List.of(new BarSeries("conquer ÷ share", new Color(0x3B7DD8),
                ratios.stream().mapToDouble(Double::doubleValue).toArray())), 1.0).writePng(png);
        out.println("wrote " + csv + ", " + csv.resolveSibling(name + "-samples.csv") + " and " + png);
    }

    private static String format(final List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).reduce((a, b) -> a + ", " + b).orElse("");
    }

    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf ds-vs-dc");
        spec.usageMessage().description("Divide and share vs pure divide and conquer (TSP, Barnes-Hut, SAT, LocusRoute) on 1 and 4 node "
            + "processes, rounds interleaved; run it under flock /tmp/divvy-heavy.lock on a shared machine.");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).arity("0")
            .description("Tiny instances, one round: a smoke test; the numbers mean nothing.").build());
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("Rounds (default 3; 1 with --quick).").build());
        spec.addOption(OptionSpec.builder("--only").type(String.class).paramLabel("APPS")
            .description("Comma-separated rows: " + String.join(", ", APPS.stream().map(AppRow::name).toList())
                + " (default: all).").build());
        spec.addOption(OptionSpec.builder("--timeout-seconds").type(int.class).paramLabel("S")
            .description("A run that takes longer fails the section (default 120).").build());
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("Summary CSV; the samples and the PNG go beside it (default " + DEFAULT_OUT + ").").build());
        return spec;
    }
}
