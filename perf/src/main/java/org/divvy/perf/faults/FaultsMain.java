package org.divvy.perf.faults;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

/**
 * {@code java -jar divvy-perf.jar faults [--quick] [--rounds N] [--out perf/results/faults.csv] [...]}: the
 * fault-tolerance figures of issue 8, side by side in one run. Every run is a real {@code divvy run} in a child
 * process (node 0 hosts the registry and submits; its children are separate JVMs, SIGKILLed for real), with
 * SIMULATED WORK (fib whose leaves park), one worker per node, node 0 alone in site R and the other nodes in sites
 * A, B, C(, D). A calibration run (4 sites, crash-free) fixes the kill time at half its time; then each round runs
 * every scenario once, in the order of {@link Scenario#all}, so slow drift of the machine hits all of them.
 *
 * <p>Writes {@code OUT} (medians and ratios: {@code section,case,metric,value,unit,note}), {@code OUT-samples.csv}
 * (every run), {@code OUT-runs.log} (every run's whole output) and a PNG per figure beside it. Fails (exit 1) if
 * any run fails, prints no PASS, hangs past its deadline, or a kill does not happen.
 */
public final class FaultsMain {
    static final String DEFAULT_OUT = "perf/results/faults.csv";
    static final String CSV_HEADER = "section,case,metric,value,unit,note";
    static final String SAMPLES_HEADER = "scenario,round,wall_s,passed,first_master_site,final_master_site,killed_site,"
        + "killed_nodes,killed_at_s,takeovers,jobs_spawned,jobs_stolen,jobs_restarted,orphans_kept,broadcasts,"
        + "pairs_received,result_requests,held_returned,copied_here,reused,detection_s,handed_over,taken_over,gone_s,"
        + "copies_sent,copies_adopted";
    /** What the launcher prints when it started the nodes of a {@code --join-at}. */
    static final String JOINERS_STARTED = "as --join-at";
    static final String SIMULATED = "SIMULATED WORK";
    /** What the launcher prints when a node died of SIGTERM, which this harness never sends. */
    static final String OUTSIDE_SIGNAL = "killed by signal 15, SIGTERM";
    /** How often a run disturbed by someone else's SIGTERM is repeated before the section fails. */
    static final int OUTSIDE_SIGNAL_RETRIES = 2;
    /** The child JVM options of a {@code --quick} run (the launcher's defaults plus C1 only). */
    static final List<String> QUICK_CHILD_JVM = List.of("--jvm-opt", "-XX:+UseSerialGC", "--jvm-opt", "-Xmx256m",
        "--jvm-opt", "-XX:TieredStopAtLevel=1");

    /** The settings of one invocation. */
    record Settings(boolean quick, int rounds, Path out, int nodesPerSite, int fibN, int threshold, int leafUs,
        long heartbeatPauseMs, double killFraction, double killAtS, double migrationLeadS, List<Scenario> scenarios,
        String lockFile, List<String> app, boolean sitePerProcess) {

        /** Node processes per site: one with {@code --site-per-process}, else one per node. */
        int processesPerSite() {
            return sitePerProcess ? 1 : nodesPerSite;
        }

        /**
         * The app and its arguments as {@code divvy run} takes them: {@code --app} when given (another tree shape,
         * its simulated leaves included), else fib with the settings' n, threshold and leaf time.
         */
        List<String> appArgs() {
            if (app != null) {
                return app;
            }
            return List.of("fib", "-n", String.valueOf(fibN), "--threshold", String.valueOf(threshold),
                "--simulate-leaf-us", String.valueOf(leafUs), "--progress-seconds", "0");
        }

        /** What the simulated work is, for the log and the CSV notes. */
        String workNote() {
            return app != null ? String.join(" ", app)
                : "fib(" + fibN + ") t" + threshold + " leaf " + leafUs + "us";
        }

        /** When {@code fault} stops its site, for a stop time {@code atS}. */
        double stopAtS(final Scenario.Fault fault, final double atS) {
            return fault.stopAtS(atS, migrationLeadS);
        }

        /**
         * The launcher arguments of {@code scenario}'s run (after {@code divvy}), without the harness's kill or
         * leave; a migration's new site starts at {@code stopAtS} ({@code --join-at}).
         */
        List<String> divvyArgs(final Scenario scenario, final int timeoutSeconds, final double stopAtS) {
            final List<String> args = new ArrayList<>(List.of("run", "--nodes",
                String.valueOf(scenario.nodes(nodesPerSite)), "--sites", scenario.sitesFlag(nodesPerSite),
                "--workers", "1", "--acceptable-heartbeat-pause-ms", String.valueOf(heartbeatPauseMs)));
            if (!scenario.orphanSaving()) {
                args.add("--orphan-saving=false");
            }
            if (!scenario.resultCopies()) {
                args.addAll(List.of("--result-copy-min-ms", "0"));
            }
            if (quick) { // a smoke test: JVMs that start faster (C1 only) matter more than their speed
                args.addAll(QUICK_CHILD_JVM);
            }
            if (sitePerProcess && nodesPerSite > 1) { // a site's nodes in one JVM, SIGKILLed together
                args.addAll(List.of("--nodes-per-process", String.valueOf(nodesPerSite)));
            }
            if (scenario.fault().joinsNewSite()) {
                args.addAll(List.of("--join-at", String.format(Locale.ROOT, "%.2fx%d@%s", stopAtS, nodesPerSite,
                    Scenario.NEW_SITE)));
            }
            args.addAll(List.of("--timeout-seconds", String.valueOf(timeoutSeconds)));
            args.addAll(appArgs());
            return args;
        }

        /** Leaves of fib(n) cut at the threshold: the simulated work is leaves x leafUs. */
        long leaves() {
            return leaves(fibN, threshold);
        }

        static long leaves(final int n, final int threshold) {
            if (n < threshold) {
                return 1;
            }
            long a = 1;
            long b = 1; // leaves(threshold - 1), leaves(threshold - 2) (both 1 when threshold >= 2)
            for (int k = threshold; k <= n; k++) {
                final long c = a + b;
                b = a;
                a = c;
            }
            return a;
        }
    }

    private FaultsMain() {
    }

    /** Parses {@code args} (after the {@code faults} word) and runs; exit code 0 ok, 1 failed, 2 usage. */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final Settings settings;
        try {
            settings = parse(args);
        } catch (final IllegalArgumentException e) {
            err.println("divvy-perf faults: " + e.getMessage());
            err.println(usage());
            return 2;
        }
        if (settings == null) {
            out.println(usage());
            return 0;
        }
        try {
            new FaultsMain.Session(settings, out).run();
            return 0;
        } catch (final RuntimeException | IOException e) {
            err.println("divvy-perf faults: FAILED: " + e.getMessage());
            return 1;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("divvy-perf faults: interrupted");
            return 1;
        }
    }

    static String usage() {
        return "usage: java -jar divvy-perf.jar faults [--quick] [--rounds N] [--out FILE.csv] [--nodes-per-site K]\n"
            + "         [--fib-n N] [--threshold T] [--leaf-us US] [--heartbeat-pause-ms MS] [--kill-fraction F | --kill-at-s S]\n"
            + "         [--migration-lead-s S] [--app 'APP ARGS...' (instead of fib; must simulate its leaves)]\n"
            + "         [--site-per-process (each site's nodes in one JVM, killed together: big sites on few cores)]\n"
            + "         [--only id,id,...] [--lock FILE (each run under flock FILE)]   scenarios: " + Scenario.all().stream().map(Scenario::id).toList();
    }

    /** The settings {@code args} give; null when help was asked for. */
    static Settings parse(final String[] args) {
        final Map<String, String> given = new LinkedHashMap<>();
        boolean quick = false;
        boolean sitePerProcess = false;
        for (int i = 0; i < args.length; i++) {
            final String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                return null;
            }
            if (a.equals("--quick")) {
                quick = true;
                continue;
            }
            if (a.equals("--site-per-process")) {
                sitePerProcess = true;
                continue;
            }
            if (!List.of("--rounds", "--out", "--nodes-per-site", "--fib-n", "--threshold", "--leaf-us",
                "--heartbeat-pause-ms", "--kill-fraction", "--kill-at-s", "--migration-lead-s", "--only", "--lock", "--app").contains(a)) {
                throw new IllegalArgumentException("unknown option " + a);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            given.put(a, args[++i]);
        }
        final int rounds = positive(given, "--rounds", quick ? 1 : 3);
        final int perSite = positive(given, "--nodes-per-site", quick ? 1 : 2);
        final int fibN = positive(given, "--fib-n", quick ? 26 : 35); // quick: about 0.7 s, so the kill at 0.3 s lands inside
        final int threshold = positive(given, "--threshold", quick ? 16 : 16);
        final int leafUs = positive(given, "--leaf-us", quick ? 10_000 : 20_000);
        final int pauseMs = positive(given, "--heartbeat-pause-ms", 2_000);
        final double fraction = Double.parseDouble(given.getOrDefault("--kill-fraction", "0.5"));
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("--kill-fraction " + fraction + ", must be in (0, 1)");
        }
        final double killAtS = Double.parseDouble(given.getOrDefault("--kill-at-s", quick ? "0.3" : "NaN"));
        if (killAtS <= 0) {
            throw new IllegalArgumentException("--kill-at-s " + killAtS + ", must be > 0");
        }
        // quick: no lead, or its tiny run would end before the old site leaves
        final double leadS = Double.parseDouble(given.getOrDefault("--migration-lead-s", quick ? "0" : "3"));
        if (!(leadS >= 0)) {
            throw new IllegalArgumentException("--migration-lead-s " + leadS + ", must be >= 0");
        }
        List<Scenario> scenarios = Scenario.all();
        if (given.containsKey("--only")) {
            scenarios = Arrays.stream(given.get("--only").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .map(Scenario::named).toList();
        }
        List<String> app = null;
        if (given.containsKey("--app")) {
            app = Arrays.stream(given.get("--app").trim().split("\\s+")).toList();
            if (!app.contains("--simulate-leaf-us")) { // many single-worker JVMs on a few cores: only simulated work scales
                throw new IllegalArgumentException("--app '" + given.get("--app") + "' must simulate its leaves (--simulate-leaf-us US)");
            }
        }
        return new Settings(quick, rounds, Path.of(given.getOrDefault("--out", DEFAULT_OUT)), perSite, fibN, threshold,
            leafUs, pauseMs, fraction, killAtS, leadS, scenarios, given.get("--lock"), app, sitePerProcess);
    }

    private static int positive(final Map<String, String> given, final String option, final int fallback) {
        final int value = Integer.parseInt(given.getOrDefault(option, String.valueOf(fallback)));
        if (value < 1) {
            throw new IllegalArgumentException(option + " " + value + ", must be >= 1");
        }
        return value;
    }

    /** One invocation: calibrate, the rounds, then the files. */
    static final class Session {
        private final Settings s;
        private final PrintStream out;
        private final Path runsLog;
        private final Map<Scenario, List<RunSample>> samples = new LinkedHashMap<>();
        private final List<String> sampleRows = new ArrayList<>();
        private final List<String> csv = new ArrayList<>();
        /** Per crash scenario: seconds from the SIGKILL to the registry declaring the first killed node dead. */
        private final Map<Scenario, List<Double>> detections = new LinkedHashMap<>();
        /** Per stop scenario: seconds from the signal until the last stopped process had exited. */
        private final Map<Scenario, List<Double>> gone = new LinkedHashMap<>();

        Session(final Settings settings, final PrintStream out) {
            this.s = settings;
            this.out = out;
            this.runsLog = sibling(settings.out(), "-runs.log");
        }

        void run() throws IOException, InterruptedException {
            Files.createDirectories(s.out().toAbsolutePath().getParent());
            Files.writeString(runsLog, "");
            out.printf(Locale.ROOT, "divvy-perf faults, %s, %d cores, load average %.2f, Java %s%n",
                LocalDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE_TIME), Runtime.getRuntime().availableProcessors(),
                loadAverage(), System.getProperty("java.version"));
            final String work = s.app() != null ? s.workNote() : String.format(Locale.ROOT,
                "fib(%d), threshold %d: %d leaves, each parks %d us (%.1f s of simulated work)", s.fibN(), s.threshold(),
                s.leaves(), s.leafUs(), s.leaves() * s.leafUs() / 1e6);
            out.printf(Locale.ROOT, "%s: %s; "
                + "1 worker per node; node 0 (registry, submitter, works too) alone in site R, %d node(s) per site A-D%s; "
                + "loopback between sites (no WAN relay); acceptable heartbeat pause %d ms (all scenarios)%n",
                SIMULATED, work, s.nodesPerSite(), s.sitePerProcess() ? ", each site one JVM (--nodes-per-process)" : "",
                s.heartbeatPauseMs());
            for (final Scenario scenario : s.scenarios()) {
                samples.put(scenario, new ArrayList<>());
                out.println("  scenario " + scenario.id() + ": " + scenario.description());
            }
            final double fourSitesS;
            final double killAtS;
            if (Double.isNaN(s.killAtS())) {
                final Scenario calibration = Scenario.all().get(0);
                final double calibrationDeadline = 600;
                out.println("calibration (untimed warm-up): " + describeCommand(calibration, (int)calibrationDeadline - 15,
                    Double.NaN, null));
                fourSitesS = runOnce(calibration, 0, Double.NaN, calibrationDeadline).wallSeconds();
                killAtS = s.killFraction() * fourSitesS;
                out.printf(Locale.ROOT, "calibration: 4 sites took %.2f s; kills at %.2f s after the run starts (%.0f%% of "
                    + "it)%n", fourSitesS, killAtS, 100 * s.killFraction());
            } else {
                fourSitesS = Double.NaN;
                killAtS = s.killAtS();
                out.printf(Locale.ROOT, "no calibration: kills at %.2f s after the run starts (--kill-at-s)%n", killAtS);
            }
            // generous: the slowest scenario (the master's site killed, naive) is about 2.5x the 4-site time
            final double deadlineS = 60 + 6 * (Double.isNaN(fourSitesS) ? 2 * killAtS : fourSitesS);
            out.printf(Locale.ROOT, "every run's deadline %.0f s%n", deadlineS);
            for (int round = 1; round <= s.rounds(); round++) {
                for (final Scenario scenario : s.scenarios()) {
                    samples.get(scenario).add(runOnce(scenario, round, killAtS, deadlineS));
                }
            }
            summarise(fourSitesS, killAtS, deadlineS);
        }

        private RunSample runOnce(final Scenario scenario, final int round, final double killAtS, final double deadlineS)
            throws IOException, InterruptedException {
            final int timeout = (int)Math.max(10, deadlineS - 15);
            DivvyRunProcess.Result result = null;
            for (int attempt = 1; attempt <= 1 + OUTSIDE_SIGNAL_RETRIES; attempt++) {
                result = DivvyRunProcess.run(s.lockFile(), s.divvyArgs(scenario, timeout, killAtS), scenario.fault(),
                    s.stopAtS(scenario.fault(), killAtS),
                    scenario.sites(), s.nodesPerSite(), s.processesPerSite(), deadlineS);
                if (!result.lines().stream().anyMatch(l -> l.contains(OUTSIDE_SIGNAL))) {
                    break;
                }
                // this harness only ever sends SIGKILL: a SIGTERM came from another process on the machine
                out.println("WARNING: " + scenario.id() + " round " + round + ": a node was stopped by a SIGTERM this "
                    + "harness did not send (another process on the machine); the run is repeated (attempt " + attempt + ")");
                Files.write(runsLog, ("==== disturbed run, repeated:\n" + String.join("\n", result.stampedLines()) + "\n")
                    .getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
            }
            final String header = "==== " + scenario.id() + " round " + round + ": "
                + describeCommand(scenario, timeout, killAtS, result.killedSite());
            Files.write(runsLog, (header + "\n" + String.join("\n", result.stampedLines()) + "\n").getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND);
            final RunSample sample = RunSample.parse(result.lines());
            if (result.exitCode() != 0 || !sample.passed() || Double.isNaN(sample.wallSeconds())) {
                throw new IllegalStateException(scenario.id() + " round " + round + ": divvy run exited with "
                    + result.exitCode() + (sample.passed() ? "" : ", no PASS line") + "; its output is in " + runsLog
                    + ":\n" + tail(result.lines(), 40));
            }
            if (scenario.fault().stops() && result.killedSite() == null) {
                throw new IllegalStateException(scenario.id() + " round " + round + ": the run ended before the stop at "
                    + s.stopAtS(scenario.fault(), killAtS) + " s; make the problem larger (--fib-n) or the stop earlier "
                    + "(--kill-fraction)");
            }
            if (scenario.fault().joinsNewSite() && result.lines().stream().noneMatch(l -> l.contains(JOINERS_STARTED))) {
                throw new IllegalStateException(scenario.id() + " round " + round + ": the new site did not start");
            }
            if (scenario.fault().mastersSite() && sample.takeovers() < 1) {
                throw new IllegalStateException(scenario.id() + " round " + round + ": the master's site was killed but "
                    + "no takeover was reported");
            }
            out.printf(Locale.ROOT, "%-24s round %d: %7.2f s PASS%s; master site %s%s; spawned %d, stolen %d, orphans "
                    + "kept %d, reused %d, broadcasts %d, restarted %d, result copies sent %d, adopted %d%n", scenario.id(), round, sample.wallSeconds(),
                result.killedSite() == null ? "" : String.format(Locale.ROOT, ", %s site %s (%d nodes) at %.2f s%s",
                    scenario.fault().kills() ? "killed" : "stopped (graceful leave)", result.killedSite(),
                    result.killedNodes(), result.killedAtS(), scenario.fault().kills() ? ""
                        : String.format(Locale.ROOT, ", gone %.2f s later, handed over %d, taken over %d", result.goneS(),
                            sample.handedOver(), sample.takenOver())),
                sample.firstMasterSite(), sample.takeovers() > 0 ? " -> " + sample.finalMasterSite() + " (takeovers "
                    + sample.takeovers() + ")" : "", sample.jobsSpawned(), sample.jobsStolen(), sample.orphansKept(),
                sample.reused(), sample.broadcasts(), sample.jobsRestarted(), sample.copiesSent(), sample.copiesAdopted());
            if (round > 0) {
                sampleRows.add(String.join(",", scenario.id(), String.valueOf(round), fmt(sample.wallSeconds()),
                    String.valueOf(sample.passed()), sample.firstMasterSite(), sample.finalMasterSite(),
                    result.killedSite() == null ? "" : result.killedSite(), String.valueOf(result.killedNodes()),
                    Double.isNaN(result.killedAtS()) ? "" : fmt(result.killedAtS()), String.valueOf(sample.takeovers()),
                    String.valueOf(sample.jobsSpawned()), String.valueOf(sample.jobsStolen()),
                    String.valueOf(sample.jobsRestarted()), String.valueOf(sample.orphansKept()),
                    String.valueOf(sample.broadcasts()), String.valueOf(sample.pairsReceived()),
                    String.valueOf(sample.resultRequests()), String.valueOf(sample.heldReturned()),
                    String.valueOf(sample.copiedHere()), String.valueOf(sample.reused()),
                    Double.isNaN(result.detectionS()) ? "" : fmt(result.detectionS()), String.valueOf(sample.handedOver()),
                    String.valueOf(sample.takenOver()), Double.isNaN(result.goneS()) ? "" : fmt(result.goneS()),
                    String.valueOf(sample.copiesSent()), String.valueOf(sample.copiesAdopted())));
                detections.computeIfAbsent(scenario, k -> new ArrayList<>()).add(result.detectionS());
                gone.computeIfAbsent(scenario, k -> new ArrayList<>()).add(result.goneS());
            }
            return sample;
        }

        /** The command of a scenario's run, and the harness's kill in launcher terms. */
        String describeCommand(final Scenario scenario, final int timeout, final double killAtS, final String killedSite) {
            final String command = "bin/divvy " + String.join(" ", s.divvyArgs(scenario, timeout, killAtS));
            final Scenario.Fault fault = scenario.fault();
            if (!fault.stops()) {
                return command;
            }
            final double at = s.stopAtS(fault, killAtS);
            return command + String.format(Locale.ROOT, "  + the harness %s %s at t=%.2f s (as --%s %s@%.2f)",
                fault.kills() ? "SIGKILLs" : "SIGTERMs (graceful leave)",
                fault.mastersSite() ? "the master's site" : "a site without the master", at,
                fault.kills() ? "kill-site" : "leave-site", killedSite == null ? "SITE" : killedSite, at);
        }

        private void summarise(final double calibrationS, final double killAtS, final double deadlineS) throws IOException {
            final String note = SIMULATED + " " + s.workNote();
            out.println();
            out.printf(Locale.ROOT, "medians of %d round(s):%n", s.rounds());
            out.printf(Locale.ROOT, "%-24s %8s %8s %8s %8s %8s %8s %8s %8s%n", "scenario", "wall s", "spawned", "stolen",
                "orphans", "reused", "%reused", "bcasts", "restart");
            for (final Map.Entry<Scenario, List<RunSample>> e : samples.entrySet()) {
                final String id = e.getKey().id();
                final List<RunSample> runs = e.getValue();
                final double wall = median(runs, RunSample::wallSeconds);
                final double kept = median(runs, RunSample::orphansKept);
                final double reused = median(runs, RunSample::reused);
                final double pct = median(runs, r -> r.orphansKept() == 0 ? 0 : 100.0 * r.reused() / r.orphansKept());
                out.printf(Locale.ROOT, "%-24s %8.2f %8.0f %8.0f %8.0f %8.0f %7.0f%% %8.0f %8.0f%n", id, wall,
                    median(runs, RunSample::jobsSpawned), median(runs, RunSample::jobsStolen), kept, reused, pct,
                    median(runs, RunSample::broadcasts), median(runs, RunSample::jobsRestarted));
                add("run", id, "wall_median", wall, "s", note);
                add("run", id, "wall_min", runs.stream().mapToDouble(RunSample::wallSeconds).min().orElse(Double.NaN), "s", note);
                add("run", id, "wall_max", runs.stream().mapToDouble(RunSample::wallSeconds).max().orElse(Double.NaN), "s", note);
                add("run", id, "answers_correct", runs.stream().allMatch(RunSample::passed) ? 1 : 0, "bool", note);
                add("run", id, "rounds", runs.size(), "count", note);
                add("orphans", id, "jobs_spawned", median(runs, RunSample::jobsSpawned), "jobs", note);
                add("orphans", id, "jobs_stolen", median(runs, RunSample::jobsStolen), "jobs", note);
                add("orphans", id, "jobs_in_orphan_tables", kept, "jobs", note);
                add("orphans", id, "jobs_reused", reused, "jobs", note);
                add("orphans", id, "percent_reused", pct, "%", note);
                add("orphans", id, "broadcast_messages", median(runs, RunSample::broadcasts), "messages", note);
                add("orphans", id, "jobs_restarted", median(runs, RunSample::jobsRestarted), "jobs", note);
                add("orphans", id, "takeovers", median(runs, RunSample::takeovers), "count", note);
            }
            add("setup", "calibration", "four_sites_wall", calibrationS, "s", note);
            add("setup", "calibration", "kill_at", killAtS, "s", "kill fraction " + s.killFraction());
            add("setup", "calibration", "deadline", deadlineS, "s", "per run");
            out.println();
            final Scenario save = find("4sites");
            final Scenario nosave = find("4sites-nosave");
            if (save != null && nosave != null) {
                final double ratio = median(samples.get(save), RunSample::wallSeconds) / median(samples.get(nosave), RunSample::wallSeconds);
                final double paired = pairedRatio(save, nosave);
                add("overhead", "4sites/4sites-nosave", "ratio_of_medians", ratio, "x", note + "; target <= 1.01");
                add("overhead", "4sites/4sites-nosave", "median_of_round_ratios", paired, "x", note);
                out.printf(Locale.ROOT, "(a) crash-free, orphan saving on / off: %.3f (median of the per-round ratios %.3f); "
                    + "target <= 1.01%n", ratio, paired);
                chart("overhead", "(a) Crash-free time with orphan saving on vs off (" + SIMULATED + ")",
                    note + ", medians of " + s.rounds() + "; 1.0 = no overhead",
                    "time / time with orphan saving off", List.of("4 sites, crash-free"),
                    List.of(new BarSeries("orphan saving on / off (ratio of medians)", new Color(0x1f77b4), new double[] {ratio}),
                        new BarSeries("median of per-round ratios", new Color(0xff7f0e), new double[] {paired})), 1.0);
            }
            final Scenario nocopies = find("4sites-nocopies");
            if (save != null && nocopies != null) {
                final double ratio = median(samples.get(save), RunSample::wallSeconds)
                    / median(samples.get(nocopies), RunSample::wallSeconds);
                final double paired = pairedRatio(save, nocopies);
                add("overhead", "4sites/4sites-nocopies", "ratio_of_medians", ratio, "x", note + "; target <= 1.01");
                add("overhead", "4sites/4sites-nocopies", "median_of_round_ratios", paired, "x", note);
                out.printf(Locale.ROOT, "(a) crash-free, result copies on / off: %.3f (median of the per-round ratios %.3f); "
                    + "target <= 1.01%n", ratio, paired);
            }
            final Scenario three = find("3sites");
            if (three != null) {
                final double base = median(samples.get(three), RunSample::wallSeconds);
                final List<String> categories = new ArrayList<>();
                final List<Double> ratios = new ArrayList<>();
                for (final Scenario scenario : samples.keySet()) {
                    if (scenario.id().startsWith("4sites-") || scenario.fault().joinsNewSite()) {
                        continue; // (a)'s controls, and (d) has its own baseline
                    }
                    final double r = median(samples.get(scenario), RunSample::wallSeconds) / base;
                    categories.add(scenario.id());
                    ratios.add(r);
                    add("crash", scenario.id() + "/3sites", "ratio_of_medians", r, "x",
                        note + (scenario.id().equals("kill-site") ? "; target <= 0.98 (Satin 159.4/162.3 = 0.982)" : ""));
                    final List<Double> d = detections.getOrDefault(scenario, List.of());
                    final double detection = median(d.stream().mapToDouble(x -> x).filter(x -> !Double.isNaN(x)).toArray());
                    if (scenario.fault().kills() && !Double.isNaN(detection)) {
                        add("crash", scenario.id(), "detection_median", detection, "s", "SIGKILL to the registry's verdict");
                        final double without = (median(samples.get(scenario), RunSample::wallSeconds) - detection) / base;
                        add("crash", scenario.id() + "/3sites", "ratio_without_detection", without, "x",
                            "estimate: the detection delay taken off the crash run's median");
                        out.printf(Locale.ROOT, "(b) %-24s / 3sites: %.3f (detection %.2f s; without it %.3f)%n",
                            scenario.id(), r, detection, without);
                    } else {
                        out.printf(Locale.ROOT, "(b) %-24s / 3sites: %.3f%n", scenario.id(), r);
                    }
                }
                final int nodes4 = Scenario.named("4sites").nodes(s.nodesPerSite());
                final int nodes3 = three.nodes(s.nodesPerSite());
                final Scenario four = find("4sites");
                if (four != null) {
                    final double t4 = median(samples.get(four), RunSample::wallSeconds);
                    final double ideal = (killAtS + (t4 - killAtS) * nodes4 / nodes3) / base;
                    add("crash", "ideal-kill/3sites", "ratio", ideal, "x", "killAt + rest of the 4-site work at "
                        + nodes3 + "/" + nodes4 + " the speed, no detection delay, nothing lost");
                    out.printf(Locale.ROOT, "(b) ideal (nothing lost, instant detection) / 3sites: %.3f%n", ideal);
                }
                chart("crash", "(b) Time relative to 3 sites from the start (" + SIMULATED + ")",
                    note + ", " + s.nodesPerSite() + " node(s)/site + node 0; kill at " + fmt(killAtS) + " s; medians of "
                        + s.rounds(), "median time / median time of 3sites", categories,
                    List.of(new BarSeries("time / 3 sites", new Color(0x2ca02c), ratios.stream().mapToDouble(d -> d).toArray())), 1.0);
            }
            summariseMalleability(note);
            final List<String> crashIds = new ArrayList<>();
            final List<double[]> columns = new ArrayList<>();
            for (final Scenario scenario : samples.keySet()) {
                if (!scenario.fault().stops()) {
                    continue;
                }
                final List<RunSample> runs = samples.get(scenario);
                crashIds.add(scenario.id());
                columns.add(new double[] {median(runs, RunSample::jobsStolen), median(runs, RunSample::orphansKept),
                    median(runs, RunSample::reused), median(runs, RunSample::broadcasts)});
            }
            if (!crashIds.isEmpty()) {
                final String[] names = {"jobs stolen", "jobs in orphan tables", "jobs reused", "broadcast messages"};
                final Color[] colors = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728)};
                final List<BarSeries> series = new ArrayList<>();
                for (int k = 0; k < names.length; k++) {
                    final double[] v = new double[crashIds.size()];
                    for (int c = 0; c < v.length; c++) {
                        v[c] = columns.get(c)[k];
                    }
                    series.add(new BarSeries(names[k], colors[k], v));
                }
                chart("orphans", "(e) Orphan saving statistics, as the thesis's Table 3.2 (" + SIMULATED + ")",
                    note + ", medians of " + s.rounds() + ", survivors' counters", "count", crashIds, series, Double.NaN);
            }
            write(s.out(), CSV_HEADER, csv);
            final Path samplesPath = sibling(s.out(), "-samples.csv");
            write(samplesPath, SAMPLES_HEADER, sampleRows);
            out.printf(Locale.ROOT, "wrote %s, %s, %s and the charts | load average at end %.2f%n", s.out(), samplesPath,
                runsLog, loadAverage());
        }

        /** (c) a graceful leave vs a crash of the same site, (d) a migration vs none: ratios and their chart. */
        private void summariseMalleability(final String note) {
            final List<String> categories = new ArrayList<>();
            final List<Double> ratios = new ArrayList<>();
            final List<Double> paired = new ArrayList<>();
            final Scenario kill = find("kill-site");
            final Scenario leave = find("leave-site");
            if (kill != null && leave != null) {
                final double r = median(samples.get(leave), RunSample::wallSeconds) / median(samples.get(kill), RunSample::wallSeconds);
                final double p = pairedRatio(leave, kill);
                final double goneS = median(gone.getOrDefault(leave, List.of()).stream().mapToDouble(x -> x)
                    .filter(x -> !Double.isNaN(x)).toArray());
                final double handed = median(samples.get(leave), RunSample::handedOver);
                final double taken = median(samples.get(leave), RunSample::takenOver);
                add("leave", "leave-site/kill-site", "ratio_of_medians", r, "x", note);
                add("leave", "leave-site/kill-site", "median_of_round_ratios", p, "x", note);
                add("leave", "leave-site", "gone_median", goneS, "s", "SIGTERM until the leaving processes had exited");
                add("leave", "leave-site", "results_handed_over", handed, "jobs", note);
                add("leave", "leave-site", "results_taken_over", taken, "jobs", note);
                out.printf(Locale.ROOT, "(c) graceful leave / crash of the same site: %.3f (median of the per-round ratios "
                    + "%.3f); the leaving nodes were gone %.2f s after SIGTERM and handed %.0f result(s) over (%.0f taken "
                    + "over)%n", r, p, goneS, handed, taken);
                categories.add("(c) leave-site / kill-site");
                ratios.add(r);
                paired.add(p);
            }
            final Scenario migrate = find("migrate-site");
            final Scenario four = find("4sites");
            if (migrate != null && four != null) {
                final double r = median(samples.get(migrate), RunSample::wallSeconds)
                    / median(samples.get(four), RunSample::wallSeconds);
                final double p = pairedRatio(migrate, four);
                add("migration", "migrate-site/4sites", "ratio_of_medians", r, "x",
                    note + "; target < 1.05 (Satin: migration overhead < 5%)");
                add("migration", "migrate-site/4sites", "median_of_round_ratios", p, "x", note);
                out.printf(Locale.ROOT, "(d) migration / none: %.3f (median of the per-round ratios %.3f); target < 1.05%n",
                    r, p);
                categories.add("(d) migrate-site / 4sites");
                ratios.add(r);
                paired.add(p);
            }
            if (!categories.isEmpty()) {
                chart("malleability", "(c) Graceful leave vs crash, (d) migration vs none (" + SIMULATED + ")",
                    note + ", medians of " + s.rounds() + "; 1.0 = the same time", "time ratio", categories,
                    List.of(new BarSeries("ratio of medians", new Color(0x1f77b4), ratios.stream().mapToDouble(d -> d).toArray()),
                        new BarSeries("median of per-round ratios", new Color(0xff7f0e),
                            paired.stream().mapToDouble(d -> d).toArray())), 1.0);
            }
        }

        private Scenario find(final String id) {
            return samples.keySet().stream().filter(x -> x.id().equals(id)).findFirst().orElse(null);
        }

        /** Median over rounds of a/b for the same round: drift between rounds cancels. */
        private double pairedRatio(final Scenario a, final Scenario b) {
            final List<RunSample> x = samples.get(a);
            final List<RunSample> y = samples.get(b);
            final double[] r = new double[Math.min(x.size(), y.size())];
            for (int i = 0; i < r.length; i++) {
                r[i] = x.get(i).wallSeconds() / y.get(i).wallSeconds();
            }
            return median(r);
        }

        private void add(final String section, final String caseName, final String metric, final double value,
            final String unit, final String note) {
            csv.add(String.join(",", section, caseName, metric, String.format(Locale.ROOT, "%.4f", value), unit,
                note.replace(',', ';')));
        }

        private void chart(final String figure, final String title, final String subtitle, final String yAxis,
            final List<String> categories, final List<BarSeries> series, final double reference) {
            new GroupedBarChart(title, subtitle, yAxis, categories, series, reference)
                .writePng(sibling(s.out(), "-" + figure + ".png"));
        }
    }

    static Path sibling(final Path csv, final String suffix) {
        final String name = csv.getFileName().toString().replaceFirst("\\.csv$", "");
        return csv.resolveSibling(name + suffix);
    }

    static double median(final List<RunSample> runs, final ToDoubleFunction<RunSample> f) {
        return median(runs.stream().mapToDouble(f).toArray());
    }

    static double median(final double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String fmt(final double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String tail(final List<String> lines, final int n) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static void write(final Path path, final String header, final List<String> rows) {
        final List<String> lines = new ArrayList<>();
        lines.add(header);
        lines.addAll(rows);
        try {
            Files.write(path, lines, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
