package org.divvy.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;

/** What the harnesses that start many nodes in one JVM share about stopping them. */
public final class PerfNodes {
    private PerfNodes() {
    }

    /**
     * Closes {@code nodes[1..]} in parallel (each waits briefly for its LEAVE to go out; one after the other, 24 or
     * 64 nodes would take that wait each), then {@code nodes[0]}, which hosts the registry. Null entries (nodes that
     * never started) are skipped.
     */
    public static void closeJoinersThenFirst(final DivvyNode[] nodes) {
        final List<Thread> closers = new ArrayList<>();
        for (int i = 1; i < nodes.length; i++) {
            final DivvyNode node = nodes[i];
            if (node != null) {
                final Thread t = new Thread(node::close, "close-node-" + i);
                t.start();
                closers.add(t);
            }
        }
        for (final Thread t : closers) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(30));
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        if (nodes.length > 0 && nodes[0] != null) {
            nodes[0].close();
        }
    }
}
