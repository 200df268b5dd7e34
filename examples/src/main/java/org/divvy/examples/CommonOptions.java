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

    /**
     * The version an app's {@code --mode} chose; not an option here, since only some apps have versions to choose
     * from (each describes its own), but kept here so every app reads and checks it the same way.
     */
    private Mode mode = Mode.CONQUER;

    public CommonOptions() {
    }

    /** The configured worker count, resolving 0 to the number of available processors. */
    public int workers() {
        return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
    }

    /** Whether the plain sequential version runs: {@code --sequential} or an app's {@code --mode sequential}. */
    public boolean sequential() {
        return sequential || mode == Mode.SEQUENTIAL;
    }

    /** An app's {@code --mode} (its option's setter calls this; {@code conquer} until then). */
    public void chooseMode(final Mode chosen) {
        mode = chosen;
    }

    /** The version this run solves with: {@link Mode#SEQUENTIAL} under {@code --sequential}, else the chosen mode. */
    public Mode mode() {
        return sequential() ? Mode.SEQUENTIAL : mode;
    }

    public int progressSeconds() {
        return progressSeconds;
    }

    /** Throws {@link IllegalArgumentException} naming the option, its value and the bound. */
    public void validate() {
        Options.atLeast("--workers", workers, 0);
        Options.atLeast("--progress-seconds", progressSeconds, 0);
        if (sequential && mode != Mode.CONQUER && mode != Mode.SEQUENTIAL) {
            throw new IllegalArgumentException("--sequential and --mode " + mode.flag() + " contradict each other: "
                + "give one of them");
        }
    }
}
