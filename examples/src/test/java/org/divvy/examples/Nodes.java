package org.divvy.examples;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.Root;

/** Test helper: runs one root on a fresh node and closes it. */
public final class Nodes {
    private Nodes() {
    }

    /** The value of {@code root} run on a fresh node with {@code workers} workers. */
    public static <T> T run(final int workers, final Root<T> root) {
        try (DivvyNode node = DivvyNode.start(NodeConfig.builder().workers(workers).build())) {
            return node.run(root).value();
        }
    }
}
