package org.divvy;

/** Conveniences for programs that need one node for one run. */
public final class Divvy {
    private Divvy() {
    }

    /**
     * Starts a node configured by {@link NodeConfig#fromSystemProperties()} (the defaults unless
     * {@code divvy.*} properties are set), runs {@code task} on it, and closes it.
     */
    public static <T> RunResult<T> run(final RootTask<T> task) {
        try (DivvyNode node = DivvyNode.start(NodeConfig.fromSystemProperties())) {
            return node.run(task);
        }
    }
}
