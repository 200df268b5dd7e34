package org.divvy.perf.table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measurements behind issue 10's table, one per {@code --rows} id, in the table's order. Each is the perf
 * subcommand that measures it alone ({@link #args}), and how its CSV turns into the table's lines ({@link #read}).
 */
enum IssueRow {
    /** fib(35) with every call a task, and in ForkJoinPool's shape, Divvy over ForkJoinPool(2): the single-node benchmark. */
    FIB("fib", 3_600) {
        @Override
        List<String> args(final TableSettings s) {
            final List<String> args = new ArrayList<>(List.of("--only", "fib35,fib35-one", "--rounds",
                Integer.toString(2 * s.rounds() + 1)));
            if (s.quick()) {
                args.addAll(List.of("--quick", "--warmup", "1"));
            }
            args.addAll(List.of("--out", out(s, "single-node.csv")));
            return args;
        }

        @Override
        List<TableRow> read(final TableSettings s, final String command) {
            final CsvFile medians = CsvFile.read(Path.of(out(s, "single-node.csv")));
            final CsvFile samples = CsvFile.read(Path.of(out(s, "single-node-samples.csv")));
            final List<TableRow> rows = new ArrayList<>();
            for (final String id : List.of("fib35", "fib35-one")) {
                final Map<String, String> m = medians.only("benchmark", id);
                final double[] divvy = samples(samples, id, "Divvy");
                final double[] fjp = samples(samples, id, "FJP");
                final double[] ratios = new double[Math.min(divvy.length, fjp.length)];
                for (int i = 0; i < ratios.length; i++) {
                    ratios[i] = divvy[i] / fjp[i];
                }
                final String measure = id.equals("fib35")
                    ? "fib(35), every call a task (" + id + "): Divvy / ForkJoinPool(2)"
                    : "fib(35) in ForkJoinPool's shape, spawn n-1 and call n-2 (" + id + "): Divvy / ForkJoinPool(2)";
                rows.add(new TableRow(id, measure, number(m, "divvy_over_fjp"), min(ratios), max(ratios), "", Target.atMost(1.0),
                    String.format(Locale.ROOT, "ratio of medians; spread: the rounds' own ratios, %d rounds; Divvy %.2f ns, "
                            + "FJP %.2f ns per call (medians); %s", ratios.length, number(m, "divvy_ns_per_unit"),
                        number(m, "fjp_ns_per_unit"), m.get("description")), command));
            }
            return rows;
        }
    },
    /** The UTS kernel on one core, sequential and one Divvy worker: {@code uts --kernel}. */
    KERNEL("kernel", 3_600) {
        @Override
        List<String> args(final TableSettings s) {
            return utsArgs(s, "--kernel", true);
        }

        @Override
        List<TableRow> read(final TableSettings s, final String command) {
            final CsvFile csv = CsvFile.read(Path.of(out(s, "uts-kernel.csv")));
            final String note = csv.only("metric", "median").get("note");
            final List<TableRow> rows = new ArrayList<>();
            for (final String who : List.of("sequential", "divvy-1-worker")) {
                rows.add(new TableRow(who.equals("sequential") ? "kernel-seq" : "kernel-divvy",
                    "UTS geometric tree, one core (uts -t 1 -a 3 -d " + (s.quick() ? 8 : 12) + " -b 4 -r 19), "
                        + (who.equals("sequential") ? "sequential" : "one Divvy worker") + ": M nodes/s",
                    csv.value("kernel", who, "median"), csv.value("kernel", who, "min"), csv.value("kernel", who, "max"),
                    "M nodes/s", Target.atLeast(25),
                    String.format(Locale.ROOT, "median of %d timed runs (spread: slowest-fastest); first run %.1f; %s",
                        s.quick() ? 1 : 2 * s.rounds() + 1, csv.value("kernel", who, "first_run"), note), command));
            }
            return rows;
        }
    },
    /** 2 node processes x 1 worker over 1 x 1, node 0's wall time after warm-up runs: {@code uts --speedup}. */
    SPEEDUP("speedup", 3_600) {
        @Override
        List<String> args(final TableSettings s) {
            return utsArgs(s, "--speedup", true);
        }

        @Override
        List<TableRow> read(final TableSettings s, final String command) {
            final CsvFile csv = CsvFile.read(Path.of(out(s, "uts-speedup.csv")));
            return List.of(new TableRow("speedup",
                "UTS d=" + (s.quick() ? 9 : 13) + ", run time without JVM start-up: 2 nodes x 1 worker / 1 node x 1 worker",
                csv.value("speedup", "ratio", "wall"), csv.value("speedup", "ratio", "wall_round_min"),
                csv.value("speedup", "ratio", "wall_round_max"), "", Target.atLeast(1.9),
                String.format(Locale.ROOT, "ratio of median walls %.3f s / %.3f s; spread: the rounds' own ratios; first runs "
                        + "%.2f; other processes' CPU %.2f / %.2f cores, the nodes' JIT compilers %.0f / %.0f ms during the "
                        + "timed runs; %s", csv.value("speedup", "1-node-1-worker", "wall"),
                    csv.value("speedup", "2-nodes-1-worker", "wall"), csv.value("speedup", "ratio", "first_wall"),
                    csv.value("speedup", "1-node-1-worker", "other_cpu"), csv.value("speedup", "2-nodes-1-worker", "other_cpu"),
                    csv.value("speedup", "1-node-1-worker", "compiler_cpu"), csv.value("speedup", "2-nodes-1-worker", "compiler_cpu"),
                    csv.only("case", "ratio").get("note")), command));
        }
    },
    /** Peak and idle RSS of every node process of {@code divvy run --nodes 4 --workers 1 uts ... -d 12}: {@code uts --memory}. */
    MEMORY("memory", 3_600) {
        @Override
        List<String> args(final TableSettings s) {
            return utsArgs(s, "--memory", false);
        }

        @Override
        List<TableRow> read(final TableSettings s, final String command) {
            final CsvFile csv = CsvFile.read(Path.of(out(s, "uts-memory.csv")));
            final List<TableRow> rows = new ArrayList<>();
            for (final String metric : List.of("peak_rss", "idle_rss")) {
                final double[] each = csv.records(r -> "memory".equals(r.get("section")) && metric.equals(r.get("metric"))).stream()
                    .mapToDouble(r -> Double.parseDouble(r.get("value"))).toArray();
                if (each.length == 0) {
                    throw new IllegalStateException(out(s, "uts-memory.csv") + " has no " + metric + " row");
                }
                final String nodes = s.quick() ? "2" : "4";
                rows.add(new TableRow("memory-" + metric.replace("_rss", ""), metric.equals("peak_rss")
                        ? "peak RSS of a node process, divvy run --nodes " + nodes + " --workers 1 uts ... -d " + (s.quick() ? 8 : 12)
                        : "idle RSS of a node process (all joined, before the run), the same run",
                    max(each), min(each), max(each), "MiB", Target.atMost(metric.equals("peak_rss") ? 192 : 128),
                    "the largest of " + each.length + " node processes (spread: smallest-largest); each: "
                        + String.join(", ", Arrays.stream(each).mapToObj(v -> String.format(Locale.ROOT, "%.0f", v)).toList())
                        + (metric.equals("peak_rss") ? " (VmHWM)" : " (VmRSS)"), command));
            }
            return rows;
        }
    },
    /** CRS efficiency, 3 sites x 8 nodes, SIMULATED, 10 and 50 ms one-way, with the 0 ms control: {@code lanwan --efficiency}. */
    WAN("wan", 7_200) {
        @Override
        List<String> args(final TableSettings s) {
            final List<String> args = new ArrayList<>(List.of("lanwan", "--efficiency", "--delays-ms", "10,50", "--policies", "CRS",
                "--repeats", Integer.toString(s.rounds()), "--base-port", Integer.toString(s.basePort())));
            if (s.quick()) {
                args.add("--quick");
            }
            args.addAll(List.of("--out", out(s, "lanwan.csv")));
            return args;
        }

        @Override
        List<TableRow> read(final TableSettings s, final String command) {
            final CsvFile csv = CsvFile.read(Path.of(out(s, "lanwan.csv")));
            final List<TableRow> rows = new ArrayList<>();
            for (final long delayMs : new long[] {0, 10, 50}) {
                final Map<String, String> summary = csv.records(r -> "efficiency".equals(r.get("section"))
                        && "efficiency_median".equals(r.get("metric")) && r.get("case").matches("CRS-\\d+x\\d+-delay" + delayMs + "ms-leaf\\d+us"))
                    .stream().findFirst()
                    .orElseThrow(() -> new IllegalStateException(out(s, "lanwan.csv") + " has no CRS case at " + delayMs + " ms"));
                final String caseName = summary.get("case");
                if (csv.value("efficiency", caseName, "answer_correct") != 1) {
                    throw new IllegalStateException(caseName + ": a run computed a wrong answer or lost a leaf");
                }
                final Matcher m = CASE.matcher(caseName);
                if (!m.matches()) {
                    throw new IllegalStateException("unexpected efficiency case name " + caseName);
                }
                final String topology = m.group(1) + " sites x " + m.group(2) + " nodes, SIMULATED, " + Integer.parseInt(m.group(4)) / 1000.0
                    + " ms leaves";
                final String runs = String.format(Locale.ROOT, "median of %.0f runs of %.1f s (spread: min-max)",
                    csv.value("efficiency", caseName, "runs"), csv.value("efficiency", caseName, "elapsed_median") / 1000);
                final String losses = String.format(Locale.ROOT, "lost (medians): ramp %.3f, tail %.3f, gaps %.3f, overshoot %.3f",
                    csv.value("efficiency", caseName, "loss_ramp_median"), csv.value("efficiency", caseName, "loss_tail_median"),
                    csv.value("efficiency", caseName, "loss_gaps_median"), csv.value("efficiency", caseName, "loss_overshoot_median"));
                if (delayMs == 0) {
                    rows.add(new TableRow("wan-control", "CRS efficiency, " + topology + ", 0 ms (the control: the harness's own loss)",
                        csv.value("efficiency", caseName, "efficiency_median"), csv.value("efficiency", caseName, "efficiency_min"),
                        csv.value("efficiency", caseName, "efficiency_max"), "", Target.NONE, runs + "; " + losses, command));
                    continue;
                }
                rows.add(new TableRow("wan-" + delayMs + "ms", "CRS efficiency, " + topology + ", " + delayMs + " ms one-way: absolute",
                    csv.value("efficiency", caseName, "efficiency_median"), csv.value("efficiency", caseName, "efficiency_min"),
                    csv.value("efficiency", caseName, "efficiency_max"), "", Target.atLeast(delayMs == 10 ? 0.95 : 0.90),
                    runs + "; " + losses, command));
                rows.add(new TableRow("wan-" + delayMs + "ms-relative", "CRS efficiency, " + delayMs + " ms one-way, relative to the "
                        + "0 ms control", csv.value("efficiency", caseName, "relative_to_control_median"),
                    csv.value("efficiency", caseName, "relative_to_control_min"),
                    csv.value("efficiency", caseName, "relative_to_control_max"), "", Target.NONE,
                    "each run's efficiency over the control's median; the wide area's cost beyond the harness's own", command));
            }
            return rows;
        }
    };

    private static final Pattern CASE = Pattern.compile("CRS-(\\d+)x(\\d+)-delay(\\d+)ms-leaf(\\d+)us");

    private final String id;
    private final double deadlineS;

    IssueRow(final String id, final double deadlineS) {
        this.id = id;
        this.deadlineS = deadlineS;
    }

    /** Its {@code --rows} id. */
    String id() {
        return id;
    }

    /** How long its child may run, waiting for the lock included. */
    double deadlineS(final TableSettings s) {
        return s.deadlineS(deadlineS);
    }

    /** The perf arguments that measure it alone (after {@code java -jar divvy-perf.jar}), writing into the rows' directory. */
    abstract List<String> args(TableSettings s);

    /** Its lines, from the files {@link #args} wrote. */
    abstract List<TableRow> read(TableSettings s, String command);

    /** The row with {@code --rows} id {@code id}; fails with the known ids. */
    static IssueRow byId(final String id) {
        for (final IssueRow row : values()) {
            if (row.id.equals(id)) {
                return row;
            }
        }
        throw new IllegalArgumentException("--rows " + id + ": no such row; known: " + ids());
    }

    static List<String> ids() {
        return Arrays.stream(values()).map(IssueRow::id).toList();
    }

    private static List<String> utsArgs(final TableSettings s, final String section, final boolean rounds) {
        final List<String> args = new ArrayList<>(List.of("uts", section));
        if (rounds) {
            args.addAll(List.of("--rounds", Integer.toString(s.rounds())));
        }
        if (s.quick()) {
            args.add("--quick");
        }
        args.addAll(List.of("--out", out(s, "uts-" + section.substring(2) + ".csv")));
        return args;
    }

    private static String out(final TableSettings s, final String file) {
        return s.rowsDirectory().resolve(file).toString();
    }

    private static double[] samples(final CsvFile samples, final String id, final String contender) {
        return samples.records(r -> id.equals(r.get("benchmark")) && contender.equals(r.get("contender"))).stream()
            .sorted((a, b) -> Integer.compare(Integer.parseInt(a.get("round")), Integer.parseInt(b.get("round"))))
            .mapToDouble(r -> Double.parseDouble(r.get("elapsed_ns"))).toArray();
    }

    private static double number(final Map<String, String> record, final String column) {
        return Double.parseDouble(record.get(column));
    }

    private static double min(final double[] values) {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(final double[] values) {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }
}
