package org.divvy.perf.table;

import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.divvy.perf.PerfFiles;
import org.divvy.perf.SubcommandArgs;
import org.divvy.perf.chart.BarSeries;
import org.divvy.perf.chart.GroupedBarChart;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code java -jar divvy-perf.jar table [--rows fib,kernel,speedup,memory,wan] [--rounds N] [--quick] [--base-port P]
 * [--lock FILE] [--out CSV]}: every row of issue 10's table in one run. Each measurement is the subcommand that
 * measures it alone ({@link IssueRow}), run as a child JVM (under {@code flock FILE} with {@code --lock}: the machine's
 * lock is held one row at a time, so others are not locked out for the whole run), its output copied here; then one
 * line per row: measure, value with its spread, target, met or not, what else was measured, and the command that
 * reproduces that row alone. Writes the rows to the CSV and a chart of each row's value against its target beside it
 * ({@code .png}). A row whose command fails is reported as FAILED and the others still run; the exit code is then 1.
 */
public final class IssueTable {
    static final String DEFAULT_OUT = "perf/results/issue10-table.csv";
    static final String HEADER = "row,measure,value,low,high,unit,target,met,detail,command";
    static final int DEFAULT_BASE_PORT = 21000;

    private IssueTable() {
    }

    /** Parses {@code args} (after the {@code table} word) and runs; returns the exit code (0 ok, 1 a row failed, 2 usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final SubcommandArgs subcommand = SubcommandArgs.parse("table", spec(), args, out, err);
        if (subcommand.parsed() == null) {
            return subcommand.exitCode();
        }
        final ParseResult parsed = subcommand.parsed();
        final List<IssueRow> chosen;
        final TableSettings settings;
        try {
            chosen = rows(parsed.matchedOptionValue("--rows", String.join(",", IssueRow.ids())));
            final boolean quick = parsed.hasMatchedOption("--quick");
            final int rounds = parsed.matchedOptionValue("--rounds", quick ? 1 : 3);
            if (rounds < 1) {
                throw new IllegalArgumentException("--rounds=" + rounds + ", must be >= 1");
            }
            final int basePort = parsed.matchedOptionValue("--base-port", DEFAULT_BASE_PORT);
            if (basePort < 1024 || basePort > 65_000) {
                throw new IllegalArgumentException("--base-port=" + basePort + ", must be in 1024..65000");
            }
            final Path csv = parsed.matchedOptionValue("--out", Path.of(DEFAULT_OUT));
            if (!csv.getFileName().toString().endsWith(".csv")) { // the rows' directory is the name without .csv
                throw new IllegalArgumentException("--out " + csv + ": must name a .csv file (the chart and the rows' directory go beside it)");
            }
            settings = new TableSettings(quick, rounds, basePort, parsed.matchedOptionValue("--lock", (String)null), csv);
        } catch (final IllegalArgumentException ex) {
            err.println("divvy-perf table: " + ex.getMessage());
            return 2;
        }
        out.println("divvy-perf table " + String.join(" ", args) + " | " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " | "
            + Runtime.getRuntime().availableProcessors() + " cores | load average at start " + PerfFiles.loadAverage()
            + (settings.quick() ? " | QUICK: tiny sizes, a smoke test; the figures mean nothing" : ""));
        final List<TableRow> rows = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        for (final IssueRow row : chosen) {
            final List<String> rowArgs = row.args(settings);
            final String command = PerfChild.shown(settings.lockFile(), rowArgs);
            out.println();
            out.println("== " + row.id() + ": " + command + " | " + Instant.now().truncatedTo(ChronoUnit.SECONDS)
                + " | load average " + PerfFiles.loadAverage());
            try {
                final PerfChild.Timing timing = PerfChild.run(settings.lockFile(), rowArgs, row.deadlineS(settings), out);
                final List<TableRow> read = row.read(settings, command);
                rows.addAll(read);
                out.printf(Locale.ROOT, "== %s done: %.0f s from the launch to its first line (the lock's wait, and the JVM's "
                        + "start), %.0f s from there to its end | load average %s%n", row.id(), timing.startS(),
                    timing.totalS() - timing.startS(), PerfFiles.loadAverage());
                read.forEach(r -> out.println("ROW " + r.line()));
            } catch (final RuntimeException ex) {
                failures.add(row.id() + ": FAILED: " + ex.getMessage());
                out.println("== " + row.id() + ": FAILED: " + ex.getMessage());
            }
            if (Thread.currentThread().isInterrupted()) {
                failures.add("interrupted: the rows after " + row.id() + " were not run");
                break;
            }
        }
        try {
            writeCsv(settings.csv(), rows);
            if (!rows.stream().allMatch(r -> !r.target().exists())) {
                chart(settings, rows);
            }
        } catch (final RuntimeException ex) { // the table below is still printed: it is what the rows measured
            failures.add("the CSV or chart: FAILED: " + ex);
        }
        out.println();
        out.println("Issue 10's table" + (settings.quick() ? " (QUICK: the figures mean nothing)" : "")
            + ": measure | value (spread) | target | met | detail | command that reproduces the row alone");
        rows.forEach(r -> out.println(r.line()));
        failures.forEach(out::println);
        out.println("wrote " + settings.csv() + " (" + rows.size() + " rows) and " + settings.chart() + "; the rows' own files in "
            + settings.rowsDirectory() + " | " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " | load average at end "
            + PerfFiles.loadAverage());
        return failures.isEmpty() ? 0 : 1;
    }

    static List<IssueRow> rows(final String list) {
        final Set<IssueRow> rows = new LinkedHashSet<>();
        for (final String id : list.split(",")) {
            if (!id.isBlank()) {
                rows.add(IssueRow.byId(id.trim()));
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("--rows " + list + ": no row named; known: " + IssueRow.ids());
        }
        // the table's order, whatever order they were named in
        return List.of(IssueRow.values()).stream().filter(rows::contains).toList();
    }

    private static void writeCsv(final Path csv, final List<TableRow> rows) {
        final List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (final TableRow r : rows) {
            lines.add(String.join(",", r.group(), quote(r.measure()), number(r.value()), number(r.low()), number(r.high()), quote(r.unit()),
                quote(r.target().text()), r.verdict(), quote(r.detail()), quote(r.command())));
        }
        PerfFiles.writeLines(csv, lines);
    }

    /**
     * One group per row with a target: its value against the target, and the worse end of its spread, each as
     * {@link Target#progress} (1 = on the target, above 1 = met, for "at most" and "at least" targets alike). Two bars
     * a row, so nine rows' labels fit the chart's width.
     */
    private static void chart(final TableSettings settings, final List<TableRow> rows) {
        final List<TableRow> targeted = rows.stream().filter(r -> r.target().exists()).toList();
        final double[] value = new double[targeted.size()];
        final double[] worst = new double[targeted.size()];
        final List<String> categories = new ArrayList<>();
        for (int i = 0; i < targeted.size(); i++) {
            final TableRow r = targeted.get(i);
            categories.add(r.group());
            value[i] = r.target().progress(r.value());
            final double low = r.target().progress(r.low());
            final double high = r.target().progress(r.high());
            worst[i] = Double.isNaN(low) ? Double.NaN : Math.min(low, high);
        }
        new GroupedBarChart("Issue 10's table: each row against its target" + (settings.quick() ? " (QUICK: meaningless)" : ""),
            "value / target for \">=\" targets, target / value for \"<=\" targets: 1 = on the target, above = met; "
                + Instant.now().truncatedTo(ChronoUnit.MINUTES),
            "toward the target (>= 1: met)", categories,
            List.of(new BarSeries("value (a median; the largest node for RSS)", new Color(0x1f77b4), value),
                new BarSeries("the worse end of its spread (slowest round, ...)", new Color(0xff9896), worst)), 1.0)
            .writePng(settings.chart());
    }

    private static String number(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String quote(final String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf table");
        spec.usageMessage().description("Issue 10's table in one run: each row measured by the subcommand that measures it "
            + "alone, in a child JVM; one line per row with its target and the command that reproduces it.",
            "Rows: " + String.join(", ", IssueRow.ids()) + ".");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(OptionSpec.builder("--rows").type(String.class).paramLabel("LIST")
            .description("Comma-separated rows to measure (default all: " + String.join(",", IssueRow.ids()) + ").").build());
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("uts --rounds N, lanwan --repeats N, 2N+1 fib rounds (default 3; quick 1).").build());
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).arity("0")
            .description("Every row's own --quick (tiny sizes): a smoke test; the figures mean nothing.").build());
        spec.addOption(OptionSpec.builder("--base-port").type(int.class).paramLabel("PORT")
            .description("First UDP port of the wan row's nodes (lanwan --base-port; default " + DEFAULT_BASE_PORT
                + "; keep it below the kernel's ephemeral range).").build());
        spec.addOption(OptionSpec.builder("--lock").type(String.class).paramLabel("FILE")
            .description("Run each row under flock FILE (the lock is held one row at a time).").build());
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("The table's CSV (default " + DEFAULT_OUT + "); <name>.png beside it, the rows' own files in <name>/.").build());
        return spec;
    }
}
