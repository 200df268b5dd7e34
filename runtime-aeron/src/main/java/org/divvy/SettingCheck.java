package org.divvy;

import java.util.Map;

/**
 * The check column of {@link NodeSettings}: which values of one setting are valid. A check sees only
 * values of its setting's type; null only where the type allows it (text, where null means "none").
 *
 * @param <T> the value's type
 */
@FunctionalInterface
interface SettingCheck<T> {
    /** Null when {@code value} is valid, else the bound it breaks, as {@code must be > 0}. */
    String violation(T value);

    /** Every value. */
    static <T> SettingCheck<T> any() {
        return value -> null;
    }

    /** {@code value > bound}. */
    static <N extends Number> SettingCheck<N> greaterThan(final long bound) {
        return value -> value.longValue() > bound ? null : "must be > " + bound;
    }

    /** {@code value >= min}; {@code why} (may be null) says where the bound comes from. */
    static <N extends Number> SettingCheck<N> atLeast(final long min, final String why) {
        return value -> value.longValue() >= min ? null : "must be >= " + min + (why == null ? "" : " (" + why + ")");
    }

    /** {@code value == 0 || value >= min}; {@code why} says where the bound comes from. */
    static <N extends Number> SettingCheck<N> zeroOrAtLeast(final long min, final String why) {
        return value -> value.longValue() == 0 || value.longValue() >= min ? null
            : "must be 0 or >= " + min + " (" + why + ")";
    }

    /** {@code min <= value <= max}. */
    static <N extends Number> SettingCheck<N> inRange(final long min, final long max) {
        return value -> value.longValue() >= min && value.longValue() <= max ? null
            : "must be in [" + min + ", " + max + "]";
    }

    /** A power of two in {@code [min, max]}. */
    static SettingCheck<Integer> powerOfTwoIn(final int min, final int max) {
        return value -> value >= min && value <= max && Integer.bitCount(value) == 1 ? null
            : "must be a power of two in [" + min + ", " + max + "]";
    }

    /** A host name or IPv4 address, without a port. */
    static SettingCheck<String> host() {
        return value -> value != null && !value.isEmpty() && value.indexOf(':') < 0 ? null
            : "must be a host name or IPv4 address without a port";
    }

    /** {@code HOST:PORT} with a port in [1, 65535], or null for none. */
    static SettingCheck<String> hostPortOrNone() {
        return value -> value == null || isHostPort(value) ? null
            : "must be HOST:PORT with a port in [1, 65535], e.g. 192.168.1.10:40123";
    }

    /** 1 to 64 letters, digits, '-', '_' or '.': a label that reads well in logs and on the command line. */
    static SettingCheck<String> label() {
        return value -> isLabel(value) ? null : "must be 1 to 64 letters, digits, '-', '_' or '.'";
    }

    /** Every key and value {@code HOST:PORT} with a port in [1, 65535]. */
    static SettingCheck<Map<String, String>> routes() {
        return value -> {
            for (final Map.Entry<String, String> route : value.entrySet()) {
                if (!isHostPort(route.getKey()) || !isHostPort(route.getValue())) {
                    return "must map HOST:PORT to HOST:PORT with ports in [1, 65535]; " + route.getKey() + "=" +
                        route.getValue() + " does not";
                }
            }
            return null;
        };
    }

    private static boolean isHostPort(final String text) {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return false;
        }
        try {
            final int port = Integer.parseInt(text.substring(colon + 1));
            return port >= 1 && port <= 65535;
        } catch (final NumberFormatException e) {
            return false;
        }
    }

    private static boolean isLabel(final String text) {
        if (text == null || text.isEmpty() || text.length() > 64) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
                return false;
            }
        }
        return true;
    }
}
