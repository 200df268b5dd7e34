package org.divvy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The type column of {@link NodeSettings}: how a setting's value is written as text (for properties,
 * flags and {@link NodeConfig#describe()}) and read back. Immutable.
 *
 * @param <T> the value's type
 */
final class SettingType<T> {
    /** How an absent value reads: a null text, an empty map. */
    static final String NONE = "none";

    static final SettingType<Integer> INT =
        new SettingType<>("int", null, false, "must be an integer", Integer::valueOf, String::valueOf);
    static final SettingType<Long> LONG =
        new SettingType<>("long", null, false, "must be an integer", Long::valueOf, String::valueOf);
    static final SettingType<Boolean> BOOLEAN =
        new SettingType<>("boolean", "true|false", false, "must be true or false", SettingType::parseBoolean, String::valueOf);
    /**
     * {@code HOST:PORT=HOST:PORT} pairs separated by commas, e.g. {@code 10.0.0.2:40001=10.0.0.9:50001};
     * {@code none} (or blank) is the empty map. Written in key order, so the text of a map is stable.
     */
    static final SettingType<Map<String, String>> ROUTES = new SettingType<>("map", "HOST:PORT=HOST:PORT,...", false,
        "must be HOST:PORT=HOST:PORT pairs separated by commas", SettingType::parseRoutes, SettingType::formatRoutes);

    private final String name;
    private final String label;
    private final boolean nullable;
    private final String expectation;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;

    private SettingType(final String name, final String label, final boolean nullable, final String expectation,
        final Function<String, T> parser, final Function<T, String> formatter) {
        this.name = name;
        this.label = label;
        this.nullable = nullable;
        this.expectation = expectation;
        this.parser = parser;
        this.formatter = formatter;
    }

    /**
     * Text shaped like {@code label} ({@code HOST}, {@code NAME}, ...); blank text is null, which a
     * setting's check accepts where null means "none".
     */
    static SettingType<String> text(final String label) {
        return new SettingType<>("string", label, true, "must be text", t -> t.isEmpty() ? null : t, t -> t);
    }

    /** An enum's constant by name, any case: {@code rs} is {@code RS}. */
    static <E extends Enum<E>> SettingType<E> constantOf(final Class<E> type) {
        final String names = Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining("|"));
        return new SettingType<>(type.getSimpleName(), names, false, "must be " + names.replace("|", " or "),
            t -> Enum.valueOf(type, t.toUpperCase(Locale.ROOT)), Enum::name);
    }

    /** The type as the README names it. */
    String name() {
        return name;
    }

    /** What a value looks like in usage help, or null where the setting's unit says it. */
    String label() {
        return label;
    }

    /** Whether null is a value (meaning "none"), left to the setting's check, or always wrong. */
    boolean nullable() {
        return nullable;
    }

    /** The bound text that does not parse breaks: {@code must be an integer}. */
    String expectation() {
        return expectation;
    }

    /** The value of {@code text} (already trimmed); any {@link RuntimeException} means it does not parse. */
    T parse(final String text) {
        return parser.apply(text);
    }

    /** The value as text that {@link #parse} reads back. */
    String format(final T value) {
        return formatter.apply(value);
    }

    private static Boolean parseBoolean(final String text) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        throw new IllegalArgumentException(text);
    }

    private static Map<String, String> parseRoutes(final String text) {
        final Map<String, String> routes = new TreeMap<>();
        if (text.isEmpty() || text.equals(NONE)) {
            return Map.of();
        }
        for (final String pair : text.split(",", -1)) {
            final int eq = pair.indexOf('=');
            if (eq < 0 || routes.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim()) != null) {
                throw new IllegalArgumentException(pair);
            }
        }
        return Map.copyOf(routes);
    }

    private static String formatRoutes(final Map<String, String> routes) {
        return routes.isEmpty() ? NONE : new TreeMap<>(routes).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(","));
    }
}
