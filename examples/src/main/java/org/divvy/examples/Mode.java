package org.divvy.examples;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which version of an application runs ({@code --mode}): the plain sequential program, pure divide and conquer
 * (everything a job needs travels with it), or divide and share (Satin++, thesis ch. 5: some state is a shared
 * object, replicated on every node that uses it and updated by shipped writes).
 */
public enum Mode {
    SEQUENTIAL, CONQUER, SHARE;

    /** The name on the command line: {@code sequential}, {@code conquer}, {@code share}. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code --mode}'s value, any case; the message names the choices. */
    public static Mode parse(final String value) {
        for (final Mode mode : values()) {
            if (mode.flag().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("--mode=" + value + " is not a mode; choose sequential, conquer or share");
    }

    /** picocli: the flag's value, any case. */
    public static final class Converter implements ITypeConverter<Mode> {
        public Converter() {
        }

        @Override
        public Mode convert(final String value) {
            try {
                return parse(value);
            } catch (final IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
