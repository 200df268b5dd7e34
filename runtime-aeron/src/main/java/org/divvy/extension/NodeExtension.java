package org.divvy.extension;

/**
 * A mechanism from another module, installed on every networked node whose class or module path holds it
 * (found with {@code ServiceLoader}; a new instance per node, so nodes in one JVM share nothing).
 */
public interface NodeExtension {
    /** Installs this extension on one node, on the thread assembling it, before the agent runs. */
    void install(ExtensionContext context);

    /** Lines for the node's statistics (counters since it started), or an empty string. Any thread. */
    default String statistics() {
        return "";
    }
}
