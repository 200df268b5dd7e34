package org.divvy.perf.single;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.Root;
import org.divvy.RootTask;
import org.divvy.RunResult;
import org.divvy.RunStatistics;

/**
 * The Divvy contender: one node, started once per session with the configured workers and otherwise
 * default settings, on which each run submits its root task.
 */
public final class DivvyEngine implements AutoCloseable {
    private final DivvyNode node;
    private RunStatistics lastStatistics;

    private DivvyEngine(final DivvyNode node) {
        this.node = node;
    }

    static DivvyEngine start(final int workers) {
        return new DivvyEngine(DivvyNode.start(NodeConfig.builder().workers(workers).build()));
    }

    /** Runs {@code task} as the root invocation and returns its value. */
    public <T> T run(final RootTask<T> task) {
        return valueOf(node.run(task));
    }

    /** Runs {@code root} (an app's spawnable entry, as {@code divvy run} runs it) and returns its value. */
    public <T> T run(final Root<T> root) {
        return valueOf(node.run(root));
    }

    private <T> T valueOf(final RunResult<T> result) {
        lastStatistics = result.statistics();
        return result.value();
    }

    /** The statistics of the last run, or null before the first. */
    public RunStatistics lastStatistics() {
        return lastStatistics;
    }

    /** The node's effective configuration. */
    public String describe() {
        return node.config().toString();
    }

    @Override
    public void close() {
        node.close();
    }
}
