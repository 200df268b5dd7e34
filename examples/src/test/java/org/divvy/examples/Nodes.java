package org.divvy.examples;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.RootTask;

/** Test helper: runs one root task on a fresh node and closes it. */
public final class Nodes {
    private Nodes() {
    }

    /** The value of {@code task} run as the root of a fresh node with {@code workers} workers. */
    public static <T> T run(final int workers, final RootTask<T> task) {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(workers).build())) {
            return node.run(task).value();
        }
    }
}
