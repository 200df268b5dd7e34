package org.divvy;

import java.util.Objects;

/**
 * One row of the node configuration table {@link NodeSettings}: a setting's name (its unit in the name,
 * e.g. {@code heartbeatIntervalMs}), type, default, check and one-line description. The rest derives from
 * the name: the system property is {@code divvy.<name>} ({@link #property()}) and the command-line flag
 * is the name in kebab case ({@link #flag()}, {@code --heartbeat-interval-ms}). {@link NodeConfig}'s
 * builder, {@link NodeConfig#fromProperties}, {@link NodeConfig#describe()}, the README's table and the
 * {@code divvy} launcher's flags all iterate {@link NodeSettings#ALL} instead of naming settings again.
 *
 * <p>Errors name the value and the bound in the words of the source that gave the value: the setting's
 * name for the builder ({@code heartbeatIntervalMs=0, must be > 0}), its property for
 * {@link NodeConfig#fromProperties} and its flag for the launcher. Immutable; the only instances are the
 * constants of {@link NodeSettings}.
 *
 * @param <T> the value's type: {@code Integer}, {@code Long}, {@code Boolean}, {@code String},
 *            {@link StealPolicy} or {@code Map<String, String>}
 */
public final class Setting<T> {
    /** Where a setting applies. */
    public enum Scope {
        /** Every node, networked or not. */
        NODE,
        /**
         * Only a networked node ({@link NodeSettings#NETWORKED}); a single node must leave it at its
         * default, so a network setting is never silently ignored.
         */
        NETWORK
    }

    private final Scope scope;
    private final String name;
    private final SettingType<T> type;
    private final T defaultValue;
    private final String defaultText;
    private final SettingCheck<T> check;
    private final String description;

    private Setting(final Scope scope, final String name, final SettingType<T> type, final T defaultValue,
        final String defaultText, final SettingCheck<T> check, final String description) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.check = Objects.requireNonNull(check, "check");
        this.description = Objects.requireNonNull(description, "description");
    }

    /** A row that applies to every node. */
    static <T> Setting<T> node(final String name, final SettingType<T> type, final T defaultValue,
        final SettingCheck<T> check, final String description) {
        return new Setting<>(Scope.NODE, name, type, defaultValue, null, check, description);
    }

    /** A row that applies only to a networked node. */
    static <T> Setting<T> network(final String name, final SettingType<T> type, final T defaultValue,
        final SettingCheck<T> check, final String description) {
        return new Setting<>(Scope.NETWORK, name, type, defaultValue, null, check, description);
    }

    /** This row with its default described in words, for a default that depends on the machine. */
    Setting<T> withDefaultText(final String text) {
        return new Setting<>(scope, name, type, defaultValue, text, check, description);
    }

    /** Whether the setting applies to every node or only to a networked one. */
    public Scope scope() {
        return scope;
    }

    /** The name, with the unit in it: {@code heartbeatIntervalMs}; also the builder's method and the getter. */
    public String name() {
        return name;
    }

    /** The system property read by {@link NodeConfig#fromProperties}: {@code divvy.<name>}. */
    public String property() {
        return "divvy." + name;
    }

    /** The command-line flag: the name in kebab case, {@code --heartbeat-interval-ms}. */
    public String flag() {
        final StringBuilder flag = new StringBuilder("--");
        for (int i = 0; i < name.length(); i++) {
            final char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                flag.append('-').append(Character.toLowerCase(c));
            } else {
                flag.append(c);
            }
        }
        return flag.toString();
    }

    /** The type as the README names it: {@code int}, {@code long}, {@code boolean}, {@code string}, ... */
    public String typeName() {
        return type.name();
    }

    /**
     * What a value looks like, for usage help: the unit for numbers ({@code MS}, {@code NS},
     * {@code BYTES}, else {@code N}), else the type's shape ({@code HOST:PORT}, {@code RS|CRS}, ...).
     */
    public String valueLabel() {
        if (type.label() != null) {
            return type.label();
        }
        if (name.endsWith("Ms")) {
            return "MS";
        }
        if (name.endsWith("Ns")) {
            return "NS";
        }
        return name.endsWith("Bytes") ? "BYTES" : "N";
    }

    /** The default value; null where null means "none" ({@link NodeSettings#JOIN}, {@link NodeSettings#AERON_DIRECTORY}). */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as documentation shows it: the value's text, or words where it depends on the machine. */
    public String defaultText() {
        return defaultText != null ? defaultText : format(defaultValue);
    }

    /** What the setting does, in one line. */
    public String description() {
        return description;
    }

    /** The value as its property or flag takes it; "none" for null. */
    public String format(final T value) {
        return value == null ? SettingType.NONE : type.format(value);
    }

    /**
     * Parses {@code text} (surrounding blanks ignored) and checks the value; {@link DivvyException}
     * names {@code source} (a property or a flag), the text and the bound: {@code --port=70000, must be
     * in [0, 65535]}.
     */
    public T parse(final String text, final String source) {
        Objects.requireNonNull(text, "text");
        final T value;
        try {
            value = type.parse(text.trim());
        } catch (final RuntimeException e) {
            throw new DivvyException(source + "=" + text + ", " + type.expectation());
        }
        final String violation = violation(value);
        if (violation != null) {
            throw new DivvyException(source + "=" + text + ", " + violation);
        }
        return value;
    }

    /** Throws {@link DivvyException} naming {@code source}, the value and the bound if {@code value} is invalid. */
    public void check(final T value, final String source) {
        final String violation = violation(value);
        if (violation != null) {
            throw new DivvyException(source + "=" + format(value) + ", " + violation);
        }
    }

    /** Null if {@code value} is valid, else the bound it breaks ({@code must be > 0}), for a message of its own. */
    public String violation(final T value) {
        if (value == null && !type.nullable()) {
            return type.expectation();
        }
        return check.violation(value);
    }

    /** {@code value}, known to belong to this setting, as its type. */
    @SuppressWarnings("unchecked")
    T cast(final Object value) {
        return (T)value;
    }

    @Override
    public String toString() {
        return name;
    }
}
