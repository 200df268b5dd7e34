package org.divvy;

import java.util.Locale;
import java.util.Properties;

/**
 * The system-property side of the table {@link NodeSettings}: each setting's property is
 * {@code divvy.<name>}. The only code that reads {@code divvy.*} properties (through
 * {@link NodeConfig.Builder#properties} and {@link NodeConfig#fromProperties}).
 */
final class SettingProperties {
    private static final String PREFIX = "divvy.";

    private SettingProperties() {
    }

    /**
     * Sets on {@code builder} every setting whose property is a key of {@code properties}, parsed and
     * checked at once so an error names the property. A {@code divvy.*} key that names no setting is an
     * error: ignored, a misspelt or renamed property would change nothing without a word.
     */
    static void read(final Properties properties, final NodeConfig.Builder builder) {
        for (final String key : properties.stringPropertyNames()) {
            if (key.startsWith(PREFIX) && NodeSettings.named(key.substring(PREFIX.length())).isEmpty()) {
                throw new DivvyException(key + " is not a Divvy setting: properties are divvy.<setting name>" +
                    closest(key) + " (NodeSettings lists them)");
            }
        }
        for (final Setting<?> setting : NodeSettings.ALL) {
            final String text = properties.getProperty(setting.property());
            if (text != null) {
                parse(setting, text, builder);
            }
        }
    }

    private static <T> void parse(final Setting<T> setting, final String text, final NodeConfig.Builder builder) {
        builder.set(setting, setting.parse(text, setting.property()));
    }

    /** The properties of every setting of {@code config} that differs from its default. */
    static Properties of(final NodeConfig config) {
        final Properties properties = new Properties();
        for (final Setting<?> setting : NodeSettings.ALL) {
            if (!config.isDefault(setting)) {
                properties.setProperty(setting.property(), config.text(setting));
            }
        }
        return properties;
    }

    /**
     * ", here divvy.heartbeatIntervalMs" when {@code key} spells a setting with other separators or case,
     * or with a prefix as the old names had ({@code divvy.net.deepIdleParkMs}); else an example.
     */
    private static String closest(final String key) {
        final String letters = key.substring(PREFIX.length()).replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
        Setting<?> closest = null;
        for (final Setting<?> setting : NodeSettings.ALL) {
            final String name = setting.name().toLowerCase(Locale.ROOT);
            if (letters.endsWith(name) && (closest == null || name.length() > closest.name().length())) {
                closest = setting;
            }
        }
        return closest != null ? ", here " + closest.property() : ", e.g. " + NodeSettings.HEARTBEAT_INTERVAL_MS.property();
    }
}
