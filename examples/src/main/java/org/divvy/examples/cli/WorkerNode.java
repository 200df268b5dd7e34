package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.DivvyException;
import org.divvy.DivvyNode;

/**
 * What {@code divvy node} does: join, work (and run a root if the registry makes this node a master) until the
 * computation ends, leave. SIGTERM (or Ctrl-C) during the computation is a graceful leave: the node's exit hook
 * hands what it finished to a staying node (thesis §3.5), and this class's hook says how much went.
 */
final class WorkerNode {
    /** The line {@link #joinedLine} prints; {@code divvy run} watches for it: a child has joined, under this node id. */
    private static final Pattern JOINED_LINE = Pattern.compile("node id (\\d+) \\(.*\\) joined \\S+");
    /** The line {@link #endedLine} prints. */
    private static final Pattern ENDED_LINE = Pattern.compile("node id (\\d+) ended: exit (\\d+)");
    /** How long leaving may take before the process exits anyway (above the scheduler's own 10 s bound). */
    private static final long CLOSE_TIMEOUT_MS = 15_000;

    private final NodeCommand command;

    WorkerNode(final NodeCommand command) {
        this.command = command;
    }

    /** {@code node id 3 (127.0.0.1:40001, site A, 1 workers) joined 127.0.0.1:40000}: printed once the node joined. */
    static String joinedLine(final int id, final String endpoint, final String site, final int workers,
        final String registry) {
        return "node id " + id + " (" + endpoint + ", site " + site + ", " + workers + " workers) joined " + registry;
    }

    /** The node id a {@link #joinedLine} gives; empty if {@code line} is none. */
    static OptionalInt joinedNodeId(final String line) {
        final Matcher matcher = JOINED_LINE.matcher(line);
        return matcher.matches() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    /**
     * {@code node id 3 ended: exit 0}: printed by each node of a process of several nodes when its life ended (the
     * computation ended, the registry declared it dead, it left on the registry's order), but not when it left on
     * SIGTERM (the process's exit says that). {@code divvy run} judges each node of such a process by its line.
     */
    static String endedLine(final int id, final int code) {
        return "node id " + id + " ended: exit " + code;
    }

    /** The node id and exit code an {@link #endedLine} gives; null if {@code line} is none. */
    static int[] endedNodeAndCode(final String line) {
        final Matcher matcher = ENDED_LINE.matcher(line);
        return matcher.matches() ? new int[] {Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))}
            : null;
    }

    int execute(final PrintStream out, final PrintStream err) {
        final int count = command.nodesInProcess();
        if (count == 1) {
            final DivvyNode node = start(err);
            return node == null ? 1 : new Life(node, out).work(out, err);
        }
        // Several nodes in this process (divvy run --nodes-per-process): each its own DivvyNode, endpoint and
        // embedded driver, joined one after the other (each says so and leaves on SIGTERM from the moment it
        // joined), then each living its own life on a thread of its own (the registry may order one out alone,
        // or declare one dead: its end line says so). A SIGKILL of the process is the crash of all of them at once.
        final List<Life> lives = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            final DivvyNode node = start(err);
            if (node == null) {
                lives.forEach(life -> life.abandon(err));
                return 1;
            }
            lives.add(new Life(node, out));
        }
        final List<CompletableFuture<Integer>> codes = new ArrayList<>();
        for (final Life life : lives) {
            final CompletableFuture<Integer> code = new CompletableFuture<>();
            final Thread thread = new Thread(() -> {
                int exit = 1; // unless work returns: an unexpected exception is a failed node, never a hang here
                try {
                    exit = life.work(out, err);
                } finally {
                    if (!life.leaving.get()) {
                        out.println(endedLine(life.id, exit));
                        out.flush();
                    }
                    code.complete(exit);
                }
            }, "divvy-node-" + life.id);
            thread.start();
            codes.add(code);
        }
        return codes.stream().mapToInt(CompletableFuture::join).max().orElse(0);
    }

    /** Starts and joins one node; null (said on {@code err}) if it cannot join, for whatever reason. */
    private DivvyNode start(final PrintStream err) {
        try {
            return DivvyNode.start(command.nodeConfig());
        } catch (final DivvyException e) {
            err.println("divvy node: cannot join " + command.join() + ": " + e.getMessage());
            return null;
        } catch (final RuntimeException e) {
            err.println("divvy node: cannot join " + command.join() + ": " + e);
            return null;
        }
    }

    /**
     * One joined node: from its construction on (right after it joined) its line that it joined is printed and
     * SIGTERM makes it leave gracefully; {@link #work} is its life.
     */
    private final class Life {
        final DivvyNode node;
        final int id;
        final AtomicBoolean ended = new AtomicBoolean();
        /** SIGTERM (or Ctrl-C) came: the exit hook leaves, so the end of {@link #work} is no end of its own. */
        final AtomicBoolean leaving = new AtomicBoolean();

        Life(final DivvyNode node, final PrintStream out) {
            this.node = node;
            this.id = node.nodeId();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                leaving.set(true);
                reportLeaveOnExit(node, id, ended, out);
            }, "divvy-node-leave-report"));
            out.println(joinedLine(id, node.endpoint(), command.site(), command.workers(), command.join()));
        }

        /** A node started before another of its process could not: it leaves, and its exit hook says nothing. */
        void abandon(final PrintStream err) {
            ended.set(true);
            Deadlines.bounded("divvy node id " + id + ": leaving", node::close, CLOSE_TIMEOUT_MS, err);
        }

        /** Works until the computation ends (or the node leaves), prints its statistics, closes. */
        int work(final PrintStream out, final PrintStream err) {
            try {
                final int code = node.awaitTermination();
                ended.set(true);
                if (node.isLeaveOrdered()) {
                    // the leave the registry ordered is under way: wait for it, bounded like any close
                    Deadlines.bounded("divvy node id " + id + ": leaving", node::close, CLOSE_TIMEOUT_MS, err);
                    out.println("node id " + id + " left the running computation (divvy leave): handed "
                        + node.networkStatistics().recovery().resultsHandedOver()
                        + " finished result(s) over to a staying node");
                    return 0;
                }
                out.println("node id " + id + ": the computation ended with exit code " + code);
                out.println("node id " + id + " jobs since it joined: " + node.jobCounts());
                out.print("node id " + id + " since it joined: " + node.networkStatistics());
                return code;
            } catch (final DivvyException e) {
                if (!leaving.get()) { // not the end of a wait that leaving on exit cut short
                    err.println("divvy node id " + id + ": " + e.getMessage());
                }
                return 1;
            } finally {
                ended.set(true); // from here on an exit is no leave mid-run: the exit hook says nothing
                if (!Deadlines.bounded("divvy node id " + id + ": leaving", node::close, CLOSE_TIMEOUT_MS, err)) {
                    err.println("divvy node id " + id + ": still leaving after " + CLOSE_TIMEOUT_MS
                        + " ms; exiting anyway");
                }
            }
        }
    }

    /**
     * At JVM exit (SIGTERM, Ctrl-C) before the computation ended: the node leaves gracefully (closing it hands its
     * finished results over; {@link DivvyNode#close} is idempotent, so whichever exit hook comes first does it)
     * and this says what went.
     */
    private static void reportLeaveOnExit(final DivvyNode node, final int id, final AtomicBoolean ended,
        final PrintStream out) {
        if (ended.get()) {
            return;
        }
        try {
            node.close();
            final long handedOver = node.networkStatistics().recovery().resultsHandedOver();
            out.println("node id " + id + " left the running computation (SIGTERM): handed " + handedOver
                + " finished result(s) over to a staying node");
        } catch (final RuntimeException e) {
            out.println("node id " + id + ": leaving on exit: " + e.getMessage());
        }
        out.flush();
    }
}
