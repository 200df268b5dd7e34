package org.divvy.perf;

import java.io.PrintStream;
import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The parsing every perf subcommand ({@code lanwan}, {@code uts}) starts with: its arguments against its picocli
 * spec, the usage on {@code --help} (to {@code out}) or after a wrong argument (to {@code err}, with the message).
 *
 * @param parsed   the parsed arguments, or null when the subcommand is done
 * @param exitCode when {@code parsed} is null: 0 (help printed) or 2 (a usage error)
 */
public record SubcommandArgs(ParseResult parsed, int exitCode) {
    /** Parses {@code args} of subcommand {@code name}. */
    public static SubcommandArgs parse(final String name, final CommandSpec spec, final String[] args, final PrintStream out,
        final PrintStream err) {
        final CommandLine commandLine = new CommandLine(spec);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        try {
            final ParseResult parsed = commandLine.parseArgs(args);
            if (parsed.isUsageHelpRequested()) {
                commandLine.usage(out);
                return new SubcommandArgs(null, 0);
            }
            return new SubcommandArgs(parsed, 0);
        } catch (final CommandLine.ParameterException ex) {
            err.println("divvy-perf " + name + ": " + ex.getMessage());
            commandLine.usage(err);
            return new SubcommandArgs(null, 2);
        }
    }
}
