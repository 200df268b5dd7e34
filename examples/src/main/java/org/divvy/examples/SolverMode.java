package org.divvy.examples;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;

/**
 * Which version of an app that has several runs ({@code --mode}): the plain sequential program, pure divide and
 * conquer (everything a job needs travels with it), or divide and share (Satin++: some state is a shared object,
 * replicated on every node that uses it and updated by shipped writes).
 */
public enum SolverMode {
    SEQUENTIAL,
    CONQUER,
    SHARE;

    /** The name on the command line. */
    public String option() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code --mode}'s value, any case; the message names the choices. */
    public static SolverMode parse(final String value) {
        for (final SolverMode mode : values()) {
            if (mode.option().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--mode=" + value + " is not a mode; choose sequential, conquer or share");
    }

    /** picocli's converter for {@code --mode}. */
    public static final class Converter implements ITypeConverter<SolverMode> {
        @Override
        public SolverMode convert(final String value) {
            return parse(value);
        }
    }
}
