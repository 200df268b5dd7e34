package org.divvy.examples;

import java.io.PrintStream;
import java.io.PrintWriter;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.examples.cli.CliCommand;
import org.divvy.examples.cli.NodeCommand;
import org.divvy.examples.cli.LeaveCommand;
import org.divvy.examples.cli.RegistryCommand;
import org.divvy.examples.cli.RunCommand;
import org.divvy.examples.fib.FibApp;
import org.divvy.examples.portable.PortableApp;
import org.divvy.examples.knapsack.KnapsackApp;
import org.divvy.examples.barneshut.BarnesHutApp;
import org.divvy.examples.locusroute.LocusRouteApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.examples.tsp.TspApp;
import org.divvy.examples.mergesort.MergeSortApp;
import org.divvy.examples.nqueens.NQueensApp;
import org.divvy.examples.raytracer.RayTracerApp;
import org.divvy.examples.uts.UtsApp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The entry point of {@code divvy-examples.jar} (and of {@code bin/divvy}):
 * {@code java -jar divvy-examples.jar <app> [options]} parses the app and its options, starts a node, runs
 * the Divvy version (or, with {@code --sequential}, the sequential one), prints the answer, PASS/FAIL, the
 * wall time and the run statistics. The sub-commands {@code run} (several nodes, as local processes and
 * remote joiners), {@code node} (join a computation), {@code registry} and {@code leave} (make nodes leave) live in
 * {@link org.divvy.examples.cli}.
 *
 * <p>Exit codes: 0 the answer passed (or has no reference), 1 it failed or the run threw, 2 usage error;
 * {@code node} exits with the master's exit code.
 */
@Command(name = "divvy", mixinStandardHelpOptions = true, version = "Divvy examples 0.1.0",
    description = "Runs a Divvy example application on one node (divvy <app>) or on several (divvy run) "
        + "and checks its answer.",
    subcommands = {FibApp.class, NQueensApp.class, KnapsackApp.class, RayTracerApp.class, MergeSortApp.class,
        UtsApp.class, TspApp.class, SatApp.class, BarnesHutApp.class, LocusRouteApp.class, PortableApp.class, RunCommand.class, NodeCommand.class, RegistryCommand.class, LeaveCommand.class},
    footer = {"", "Run 'divvy <app> --help' for the options of an app, 'divvy run --help' for multi-node runs."})
public final class Launcher {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;

    /**
     * What the command line asks for: usage help, the version, an app to run on one node, or a
     * sub-command ({@code run} with its app, {@code node}, {@code registry}).
     *
     * @param commandLine the picocli command line of the innermost command given
     * @param app         the app to run, configured; null for help, version, {@code node} and {@code registry}
     * @param command     the sub-command to execute; null for help, version and a single-node app run
     */
    public record Invocation(CommandLine commandLine, ExampleApp app, CliCommand command) {
        /** Whether help or version was requested (on the launcher, a sub-command or an app), so nothing runs. */
        public boolean isHelpOrVersion() {
            return app == null && command == null;
        }
    }

    private Launcher() {
    }

    public static void main(final String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** A fresh picocli command line of the launcher and every app (a new one per parse: it holds state). */
    public static CommandLine commandLine() {
        return new CommandLine(new Launcher());
    }

    /**
     * Parses {@code args} into the app to run, configured and validated. Throws picocli's
     * {@link ParameterException} (with a message naming the problem) for an unknown app, an unknown
     * or malformed flag, a value out of range, or no app at all.
     */
    public static Invocation parse(final String... args) {
        final CommandLine commandLine = commandLine();
        final ParseResult top = commandLine.parseArgs(args);
        if (top.isUsageHelpRequested() || top.isVersionHelpRequested()) {
            return new Invocation(commandLine, null, null);
        }
        if (!top.hasSubcommand()) {
            throw new ParameterException(commandLine, "Missing app: name one of "
                + String.join(", ", commandLine.getSubcommands().keySet()));
        }
        final ParseResult sub = top.subcommand();
        final CommandLine subCommandLine = sub.commandSpec().commandLine();
        if (sub.isUsageHelpRequested() || sub.isVersionHelpRequested()) {
            return new Invocation(subCommandLine, null, null);
        }
        final Object command = sub.commandSpec().userObject();
        if (command instanceof ExampleApp app) {
            validate(subCommandLine, app);
            return new Invocation(subCommandLine, app, null);
        }
        if (command instanceof RunCommand run) {
            if (!sub.hasSubcommand()) {
                throw new ParameterException(subCommandLine, "Missing app: name one of "
                    + String.join(", ", subCommandLine.getSubcommands().keySet()) + " after the run options");
            }
            final ParseResult appResult = sub.subcommand();
            final CommandLine appCommandLine = appResult.commandSpec().commandLine();
            if (appResult.isUsageHelpRequested() || appResult.isVersionHelpRequested()) {
                return new Invocation(appCommandLine, null, null);
            }
            final ExampleApp app = (ExampleApp)appResult.commandSpec().userObject();
            validate(appCommandLine, app);
            run.app(app);
            validate(subCommandLine, run);
            return new Invocation(subCommandLine, app, run);
        }
        final CliCommand cliCommand = (CliCommand)command;
        validate(subCommandLine, cliCommand);
        return new Invocation(subCommandLine, null, cliCommand);
    }

    private static void validate(final CommandLine commandLine, final ExampleApp app) {
        try {
            app.common().validate();
            app.validate();
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandLine, e.getMessage(), e);
        }
    }

    private static void validate(final CommandLine commandLine, final CliCommand command) {
        try {
            command.validate();
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(commandLine, e.getMessage(), e);
        }
    }

    /** Runs the command line; returns the exit code instead of exiting, so tests can call it. */
    public static int execute(final String[] args, final PrintStream out, final PrintStream err) {
        final Invocation invocation;
        try {
            invocation = parse(args);
        } catch (final ParameterException e) {
            err.println(e.getMessage());
            e.getCommandLine().usage(err);
            return EXIT_USAGE;
        }
        if (invocation.isHelpOrVersion()) {
            final CommandLine commandLine = invocation.commandLine();
            if (commandLine.isVersionHelpRequested()) {
                commandLine.printVersionHelp(out);
            } else {
                commandLine.usage(new PrintWriter(out, true));
            }
            return EXIT_OK;
        }
        if (invocation.command() != null) {
            try {
                return invocation.command().execute(out, err);
            } catch (final RuntimeException | Error e) {
                err.println(invocation.commandLine().getCommandName() + " failed: " + e);
                e.printStackTrace(err);
                return EXIT_FAILED;
            }
        }
        try {
            final AppResult result = run(invocation.app(), out);
            out.print(result.report());
            return result.passed() ? EXIT_OK : EXIT_FAILED;
        } catch (final RuntimeException | Error e) {
            err.println(invocation.app().name() + " failed: " + e);
            e.printStackTrace(err);
            return EXIT_FAILED;
        }
    }

    /** Prepares the app's input, runs it on a fresh node (or sequentially), and writes its output files. */
    public static AppResult run(final ExampleApp app, final PrintStream out) {
        System.setProperty("java.awt.headless", "true");
        final Problem<?> problem = app.prepare();
        final CommonOptions common = app.common();
        final Progress progress = Progress.start(app.name(), common.progressSeconds(), out);
        try {
            if (common.sequential()) {
                return finish(ExampleRunner.runSequential(app.name(), problem), problem);
            }
            try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(common.workers()).build())) {
                return finish(ExampleRunner.runParallel(app.name(), node, problem), problem);
            }
        } finally {
            progress.close();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> AppResult finish(final ExampleRunner.Outcome<?> outcome, final Problem<T> problem) {
        problem.afterRun((T)outcome.answer());
        return outcome.result();
    }
}
