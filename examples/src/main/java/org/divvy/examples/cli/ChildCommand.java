package org.divvy.examples.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a local child node of {@code divvy run}: the same Java and class path as this
 * process, then {@code org.divvy.examples.Launcher node --join ... --site ...}. Immutable.
 *
 * @param javaExecutable the {@code java} binary, by default {@code ${java.home}/bin/java}
 * @param jvmOptions     options before the class path (heap, GC; the Aeron add-opens is always added)
 * @param classPath      the class path, by default {@code java.class.path} (the jar when run with -jar)
 */
public record ChildCommand(String javaExecutable, List<String> jvmOptions, String classPath) {
    /** Aeron needs it (DESIGN.md, Wire); the jar's manifest has it too, but children start from -cp. */
    public static final String ADD_OPENS = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";

    /** The class whose {@code main} parses the {@code node} sub-command. */
    public static final String MAIN_CLASS = "org.divvy.examples.Launcher";

    public ChildCommand {
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** This JVM's java binary and class path, with {@code jvmOptions}. */
    public static ChildCommand ofThisJvm(final List<String> jvmOptions) {
        return new ChildCommand(Path.of(System.getProperty("java.home"), "bin", "java").toString(), jvmOptions,
            System.getProperty("java.class.path"));
    }

    /** The same java binary and class path with {@code options} in place of the JVM options. */
    public ChildCommand withJvmOptions(final List<String> options) {
        return new ChildCommand(javaExecutable, options, classPath);
    }

    /** The full command of a child that runs {@code divvy} with {@code divvyArgs} (e.g. {@code node --join ...}). */
    public List<String> command(final List<String> divvyArgs) {
        return command(List.of(), divvyArgs);
    }

    /** The full command with {@code extraJvmOptions} (of this child only) after the common ones. */
    public List<String> command(final List<String> extraJvmOptions, final List<String> divvyArgs) {
        final List<String> command = new ArrayList<>();
        command.add(javaExecutable);
        command.add(ADD_OPENS);
        command.addAll(jvmOptions);
        command.addAll(extraJvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(MAIN_CLASS);
        command.addAll(divvyArgs);
        return command;
    }
}
