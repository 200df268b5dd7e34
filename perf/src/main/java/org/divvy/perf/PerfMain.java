package org.divvy.perf;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.divvy.perf.single.Benchmarks;
import org.divvy.perf.single.SingleNodeOptions;
import org.divvy.perf.single.SingleNodeSession;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The command line of {@code divvy-perf.jar}. Today it runs the single-node benchmark:
 * <pre>
 * java -jar perf/target/divvy-perf.jar [--rounds 7] [--warmup 3] [--workers 2] [--only fib35,uts]
 *                                     [--quick] [--out perf/results/single-node.csv] [--settle-ms 50]
 * </pre>
 * The options are declared through picocli's programmatic model, so no reflection is involved.
 * {@code lanwan ...} runs the LAN/WAN harness ({@code org.divvy.perf.lanwan.LanWanMain}), {@code faults ...} the
 * fault-tolerance figures ({@code org.divvy.perf.faults.FaultsMain}), {@code uts ...} the UTS kernel, speedup and node
 * memory rows ({@code org.divvy.perf.uts.UtsMain}), {@code write-latency ...} the time for a shared-object write to
 * reach every replica across sites ({@code org.divvy.perf.sharing.WriteLatencyMain}), {@code shared-traffic ...} the
 * shared-object traffic of the divide-and-share apps with and without write combining
 * ({@code org.divvy.perf.sharing.SharedTraffic}), {@code ds-vs-dc ...} divide and share vs divide and conquer
 * ({@code org.divvy.perf.sharing.ShareVsConquer}), {@code table ...} every row of issue 10's table in one run, each by
 * the subcommand above that measures it alone, with its target and the command that reproduces it
 * ({@code org.divvy.perf.table.IssueTable}).
 */
public final class PerfMain {
    private PerfMain() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Parses {@code args} and runs; returns the process exit code (0 ok, 1 failed, 2 bad usage). */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        if (args.length > 0 && "lanwan".equals(args[0])) {
            return org.divvy.perf.lanwan.LanWanMain.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "uts".equals(args[0])) {
            return org.divvy.perf.uts.UtsMain.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "write-latency".equals(args[0])) {
            return org.divvy.perf.sharing.WriteLatencyMain.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "shared-traffic".equals(args[0])) {
            return org.divvy.perf.sharing.SharedTraffic.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "ds-vs-dc".equals(args[0])) {
            return org.divvy.perf.sharing.ShareVsConquer.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "table".equals(args[0])) {
            return org.divvy.perf.table.IssueTable.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length > 0 && "faults".equals(args[0])) {
            return org.divvy.perf.faults.FaultsMain.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        final CommandLine commandLine = new CommandLine(spec());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        final SingleNodeOptions options;
        try {
            final ParseResult parsed = commandLine.parseArgs(args);
            if (parsed.isUsageHelpRequested()) {
                commandLine.usage(out);
                return 0;
            }
            options = toOptions(parsed);
        } catch (final CommandLine.ParameterException | IllegalArgumentException ex) {
            err.println("divvy-perf: " + ex.getMessage());
            commandLine.usage(err);
            return 2;
        }
        try {
            new SingleNodeSession(options, out).run(Benchmarks.all(options.quick()));
            return 0;
        } catch (final RuntimeException ex) {
            err.println("divvy-perf: FAILED: " + ex);
            ex.printStackTrace(err);
            return 1;
        }
    }

    static SingleNodeOptions toOptions(final ParseResult parsed) {
        final Set<String> only = new LinkedHashSet<>();
        if (parsed.hasMatchedOption("--only")) {
            for (final String id : parsed.<String>matchedOptionValue("--only", "").split(",")) {
                if (id.isBlank()) {
                    continue;
                }
                if (!Benchmarks.ids().contains(id.trim())) {
                    throw new IllegalArgumentException("--only " + id.trim() + ": no such benchmark; known: " + Benchmarks.ids());
                }
                only.add(id.trim());
            }
        }
        return SingleNodeOptions.builder()
            .rounds(parsed.matchedOptionValue("--rounds", SingleNodeOptions.DEFAULT_ROUNDS))
            .warmup(parsed.matchedOptionValue("--warmup", SingleNodeOptions.DEFAULT_WARMUP))
            .workers(parsed.matchedOptionValue("--workers", SingleNodeOptions.DEFAULT_WORKERS))
            .settleMs(parsed.matchedOptionValue("--settle-ms", SingleNodeOptions.DEFAULT_SETTLE_MS))
            .quick(parsed.hasMatchedOption("--quick"))
            .only(only)
            .out(parsed.matchedOptionValue("--out", SingleNodeOptions.DEFAULT_OUT))
            .build();
    }

    private static CommandSpec spec() {
        final CommandSpec spec = CommandSpec.create().name("divvy-perf");
        spec.usageMessage().description(
            "Single-node benchmark: Divvy vs ForkJoinPool vs sequential Java, side by side in one run.",
            "Benchmarks: " + String.join(", ", Benchmarks.ids()) + ".");
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help.").build());
        spec.addOption(OptionSpec.builder("--rounds").type(int.class).paramLabel("N")
            .description("Timed alternating rounds per benchmark (default " + SingleNodeOptions.DEFAULT_ROUNDS + ").").build());
        spec.addOption(OptionSpec.builder("--warmup").type(int.class).paramLabel("N")
            .description("Untimed runs of each contender first (default " + SingleNodeOptions.DEFAULT_WARMUP + ").").build());
        spec.addOption(OptionSpec.builder("--workers").type(int.class).paramLabel("N")
            .description("Divvy workers and ForkJoinPool parallelism (default " + SingleNodeOptions.DEFAULT_WORKERS + ").").build());
        spec.addOption(OptionSpec.builder("--settle-ms").type(long.class).paramLabel("MS")
            .description("Pause before each run so idle threads park (default " + SingleNodeOptions.DEFAULT_SETTLE_MS + ").").build());
        spec.addOption(OptionSpec.builder("--only").type(String.class).paramLabel("IDS")
            .description("Comma-separated benchmark ids to run (default all).").build());
        spec.addOption(OptionSpec.builder("--quick").type(boolean.class).arity("0")
            .description("Tiny sizes: a smoke test of the harness; the times mean nothing.").build());
        spec.addOption(OptionSpec.builder("--out").type(Path.class).paramLabel("CSV")
            .description("Medians CSV (default " + SingleNodeOptions.DEFAULT_OUT + "); -samples.csv and .png go beside it.").build());
        return spec;
    }

    /** The ids accepted by {@code --only}, for tests and help. */
    static List<String> benchmarkIds() {
        return Benchmarks.ids();
    }
}
