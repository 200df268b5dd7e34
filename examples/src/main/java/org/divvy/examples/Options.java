package org.divvy.examples;

/** Option checks whose messages name the option, its value and the bound. */
public final class Options {
    private Options() {
    }

    public static void atLeast(final String option, final long value, final long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + "=" + value + ", must be >= " + min);
        }
    }

    public static void inRange(final String option, final long value, final long min, final long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + "=" + value + ", must be in [" + min + ", " + max + "]");
        }
    }

    public static void inRange(final String option, final double value, final double min, final double max) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(option + "=" + value + ", must be in [" + min + ", " + max + "]");
        }
    }
}
