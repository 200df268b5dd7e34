package org.divvy.examples;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Which version of an application runs ({@code --mode}): the plain sequential one, pure divide and conquer, or
 * divide and share (shared objects, thesis ch. 5).
 */
public enum Mode {
    SEQUENTIAL, CONQUER, SHARE;

    /** The name on the command line: {@code sequential}, {@code conquer}, {@code share}. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** picocli: the flag's value in lower case. */
    public static final class Converter implements ITypeConverter<Mode> {
        public Converter() {
        }

        @Override
        public Mode convert(final String value) {
            for (final Mode mode : values()) {
                if (mode.flag().equals(value)) {
                    return mode;
                }
            }
            throw new TypeConversionException("'" + value + "' is not a mode; choose sequential, conquer or share");
        }
    }
}
