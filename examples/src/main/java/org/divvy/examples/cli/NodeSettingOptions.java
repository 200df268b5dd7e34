package org.divvy.examples.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.Setting;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The node settings as flags of a {@code divvy} sub-command, derived from the table
 * {@link NodeSettings}: one option per row the command offers, with the row's flag
 * ({@code --heartbeat-interval-ms}), value label, description and default. No command declares a node
 * setting itself, so a new row is a new flag everywhere at once. A value stays text until
 * {@link #applyTo} parses and checks it with its row, so an error names the flag:
 * {@code --heartbeat-interval-ms=0, must be > 0}.
 *
 * <p>A command opts in with {@code @Command(modelTransformer = NodeSettingOptions.AddOptions.class)}
 * and by implementing {@link Owner}. Not thread-safe: one per command instance, filled by one parse.
 */
public final class NodeSettingOptions {
    /** A command that takes node settings as flags. */
    public interface Owner {
        /** The command's node settings: which rows it offers, and the flags given. */
        NodeSettingOptions nodeSettings();
    }

    /**
     * Adds the flags of the {@link Owner}'s rows to its command once picocli has built the command from
     * its annotations (picocli's hook for options known only at run time).
     */
    public static final class AddOptions implements IModelTransformer {
        public AddOptions() {
        }

        @Override
        public CommandSpec transform(final CommandSpec spec) {
            ((Owner)spec.userObject()).nodeSettings().addTo(spec);
            return spec;
        }
    }

    private final Predicate<Setting<?>> offered;
    /** The text of each flag given, by row; picocli writes it while parsing. */
    private final Map<Setting<?>, String> given = new LinkedHashMap<>();

    /** Options for the rows {@code offered} accepts. */
    public NodeSettingOptions(final Predicate<Setting<?>> offered) {
        this.offered = offered;
    }

    /** Every row but {@code excluded}. */
    public static Predicate<Setting<?>> allBut(final Setting<?>... excluded) {
        final Set<Setting<?>> out = Set.of(excluded);
        return setting -> !out.contains(setting);
    }

    /** Only {@code included}. */
    public static Predicate<Setting<?>> only(final Setting<?>... included) {
        return Set.<Setting<?>>of(included)::contains;
    }

    /** Whether the command offers {@code setting} as a flag. */
    public boolean offers(final Setting<?> setting) {
        return offered.test(setting);
    }

    /** Whether the flag of {@code setting} was given. */
    public boolean isGiven(final Setting<?> setting) {
        return given.containsKey(setting);
    }

    /**
     * Sets every given flag on {@code builder}, parsed and checked by its row; {@link DivvyException}
     * names the flag, the text and the bound. Checks across settings are left to {@code build()}.
     */
    public NodeConfig.Builder applyTo(final NodeConfig.Builder builder) {
        given.forEach((setting, text) -> apply(builder, setting, text));
        return builder;
    }

    /**
     * {@code base} with every given flag, built: the configuration the command runs with. Throws
     * {@link IllegalArgumentException} (a usage error) naming the flag, or the settings whose values
     * conflict.
     */
    public NodeConfig build(final NodeConfig.Builder base) {
        try {
            return applyTo(base).build();
        } catch (final DivvyException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static <T> void apply(final NodeConfig.Builder builder, final Setting<T> setting, final String text) {
        builder.set(setting, setting.parse(text, setting.flag()));
    }

    /**
     * The flags that give {@code config}'s values of the {@code rows} that differ from their defaults:
     * what a child or remote node needs to run with the same settings as this one.
     */
    public static List<String> flags(final NodeConfig config, final Predicate<Setting<?>> rows) {
        final List<String> flags = new ArrayList<>();
        for (final Setting<?> setting : NodeSettings.ALL) {
            if (rows.test(setting) && !config.isDefault(setting)) {
                flags.add(setting.flag());
                flags.add(config.text(setting));
            }
        }
        return flags;
    }

    private void addTo(final CommandSpec spec) {
        for (final Setting<?> setting : NodeSettings.ALL) {
            if (!offered.test(setting)) {
                continue;
            }
            spec.addOption(OptionSpec.builder(setting.flag())
                .type(String.class)
                .paramLabel(setting.valueLabel())
                // README code marks would show as plain backquotes in a terminal
                .description(setting.description().replace("`", "") + " (default: " + setting.defaultText() + ")")
                .setter(new ISetter() {
                    @Override
                    public <T> T set(final T value) {
                        // picocli resets every option to null before it parses
                        if (value == null) {
                            given.remove(setting);
                        } else {
                            given.put(setting, (String)value);
                        }
                        return null;
                    }
                })
                .getter(new IGetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T get() {
                        return (T)given.get(setting);
                    }
                })
                .build());
        }
    }
}
