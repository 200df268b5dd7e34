package org.divvy.examples;

/**
 * An example application, configured by its command-line options (each app is a picocli command).
 *
 * <p>Launchers use it in two steps: {@link #prepare()} builds the input, untimed; the returned
 * {@link Problem} is then solved in parallel on a node ({@link ExampleRunner#runParallel}) or
 * sequentially ({@link ExampleRunner#runSequential}). A multi-node launcher does the same with the
 * node it started.
 */
public interface ExampleApp {
    /** The command name, e.g. {@code "fib"}. */
    String name();

    /** The options shared by every app (workers, sequential mode). */
    CommonOptions common();

    /** Checks the options; throws {@link IllegalArgumentException} naming the option, value and bound. */
    void validate();

    /** Builds the input of this run (random arrays, scenes...), untimed. */
    Problem<?> prepare();
}
