package org.divvy.examples.cli;

import java.io.PrintStream;

import org.divvy.DivvyException;
import org.divvy.DivvyNode;

/** What {@code divvy node} does: join, work until the master ends the computation, leave. */
final class WorkerNode {
    /** How long leaving may take before the process exits anyway (above the scheduler's own 10 s bound). */
    private static final long CLOSE_TIMEOUT_MS = 15_000;

    private final NodeCommand command;

    WorkerNode(final NodeCommand command) {
        this.command = command;
    }

    int execute(final PrintStream out, final PrintStream err) {
        final DivvyNode node;
        try {
            node = DivvyNode.start(command.nodeConfig());
        } catch (final DivvyException e) {
            err.println("divvy node: cannot join " + command.join() + ": " + e.getMessage());
            return 1;
        }
        final int id = node.nodeId();
        try {
            out.println("node id " + id + " (" + node.endpoint() + ", site " + command.site() + ", "
                + command.workers() + " workers) joined " + command.join());
            final int code = node.awaitTermination();
            out.println("node id " + id + ": the master ended the computation with exit code " + code);
            out.print("node id " + id + " since it joined: " + node.networkStatistics());
            return code;
        } catch (final DivvyException e) {
            err.println("divvy node id " + id + ": " + e.getMessage());
            return 1;
        } finally {
            if (!Deadlines.bounded("divvy node id " + id + ": leaving", node::close, CLOSE_TIMEOUT_MS, err)) {
                err.println("divvy node id " + id + ": still leaving after " + CLOSE_TIMEOUT_MS
                    + " ms; exiting anyway");
            }
        }
    }
}
