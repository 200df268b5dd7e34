package org.divvy.examples;

import picocli.CommandLine.Option;

/** Options every app accepts (a picocli mixin). */
public final class CommonOptions {
    /** The number of worker threads of the node; 0 means one per available core. */
    @Option(names = "--workers", paramLabel = "N",
        description = "worker threads of the node (default: one per core, ${DEFAULT-VALUE} = all)")
    int workers;

    @Option(names = "--sequential",
        description = "run the plain sequential version instead of the Divvy version")
    boolean sequential;

    @Option(names = "--progress-seconds", paramLabel = "S",
        description = "print a progress line every S seconds while running; 0 = never (default: ${DEFAULT-VALUE})")
    int progressSeconds = 2;

    public CommonOptions() {
    }

    /** The configured worker count, resolving 0 to the number of available processors. */
    public int workers() {
        return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
    }

    public boolean sequential() {
        return sequential;
    }

    /** Makes this run the sequential version: an app's {@code --mode sequential} says the same as {@code --sequential}. */
    public void runSequentially() {
        sequential = true;
    }

    public int progressSeconds() {
        return progressSeconds;
    }

    /** Throws {@link IllegalArgumentException} naming the option, its value and the bound. */
    public void validate() {
        Options.atLeast("--workers", workers, 0);
        Options.atLeast("--progress-seconds", progressSeconds, 0);
    }
}
