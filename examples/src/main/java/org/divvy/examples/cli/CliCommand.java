package org.divvy.examples.cli;

import java.io.PrintStream;

/** A {@code divvy} sub-command that is not an app: {@code run}, {@code node}, {@code registry}. */
public interface CliCommand {
    /** Checks the options; throws {@link IllegalArgumentException} naming the option, value and bound. */
    void validate();

    /** Runs the command and returns the process exit code (0 success, 1 failure). */
    int execute(PrintStream out, PrintStream err);
}
