package org.divvy.examples.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.aeron.CommonContext;
import org.divvy.ClusterSecret;
import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;
import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.RunReport;
import org.divvy.Setting;
import org.divvy.examples.AppResult;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Problem;
import org.divvy.examples.Progress;

/**
 * What {@code divvy run} does as node 0: starts its node (hosting the registry unless {@code --join}), starts the
 * local child nodes, waits until every node has joined, submits the app's root to the registry (injecting the
 * scripted faults of {@link FaultSchedule} meanwhile), prints the report, and ends the computation on every node.
 * The registry
 * gives the root to a master, a child (node 0 itself only if it is alone), and to a new master whenever that one
 * dies; node 0 works on the run like the other nodes and gets the value back ({@link DivvyNode#submit}). Each
 * blocking step has a deadline ({@link Deadlines}). The join wait also races the children's deaths: a child that
 * dies before the run started ends it with an error naming it instead of a hang. Once the app runs, a child that
 * dies, the master included, is a crash the run survives (the other nodes recover its work): {@link ChildNodes}
 * reports it and the run goes on. On any failure the computation is terminated with exit code 1 and the children
 * still alive are killed.
 */
final class NodeZeroRun {
    private static final int EXIT_OK = 0;
    private static final int EXIT_FAILED = 1;
    /** How long the children may take to leave after node 0 ended the computation. */
    private static final long CHILD_EXIT_TIMEOUT_MS = 20_000;
    /** How long terminating the computation may take before the command goes on anyway. */
    private static final long NODE_STOP_TIMEOUT_MS = 5_000;
    /**
     * How long closing node 0 may take before the command returns anyway: above the scheduler's own
     * 10 s bound on a worker stuck in a job, so the node still deletes its Aeron directory afterwards.
     */
    private static final long NODE_CLOSE_TIMEOUT_MS = 15_000;
    /** After a failure, how long the surviving children get to leave by themselves before they are killed. */
    private static final long FAILURE_GRACE_MS = 3_000;
    /** How long the children's lines that they joined may lag behind the registry's count of members. */
    private static final long JOINED_LINES_TIMEOUT_MS = 5_000;
    /**
     * The settings a local child takes from node 0 (when not default): all but those each node has its
     * own of (port, registry address, site, worker count) and networked, which {@code divvy node} implies.
     */
    static final Predicate<Setting<?>> CHILD_SETTINGS = NodeSettingOptions.allBut(NodeSettings.NETWORKED,
        NodeSettings.PORT, NodeSettings.JOIN, NodeSettings.SITE, NodeSettings.WORKERS);
    /** What a remote node takes from node 0: as a local child, but it binds to its own machine's address. */
    static final Predicate<Setting<?>> REMOTE_SETTINGS = CHILD_SETTINGS.and(s -> s != NodeSettings.BIND);

    private final RunCommand run;
    private final ChildCommand childCommand;

    NodeZeroRun(final RunCommand run, final ChildCommand childCommand) {
        this.run = run;
        this.childCommand = childCommand;
    }

    int execute(final PrintStream out, final PrintStream err) {
        final ExampleApp app = run.app();
        final SiteLayout layout = run.layout();
        final NodeConfig config;
        try {
            config = withSecret(run.nodeConfig(), run.remoteNodes());
        } catch (final DivvyException e) {
            err.println("divvy run: " + e.getMessage());
            return EXIT_FAILED;
        }
        final Problem<?> problem = app.prepare();
        out.println("divvy run: " + app.name() + " on " + describeNodes(layout) + ", policy " + config.policy()
            + ", " + run.workersPerNode() + " worker(s) per local node");
        if (!run.faults().isEmpty()) {
            out.println("divvy run: faults to inject, times after the app started: " + run.faults().describe());
        }
        final DivvyNode node;
        try {
            node = DivvyNode.start(config);
        } catch (final DivvyException e) {
            err.println("divvy run: cannot start node 0: " + e.getMessage());
            return EXIT_FAILED;
        }
        final ChildNodes children = new ChildNodes(out);
        // A child's exit is certain the moment the OS reports it: the registry (if node 0 hosts it) need not wait
        // for the failure detector to notice the silence.
        children.onExitDuringRun(node::reportMemberExited);
        final Thread killChildren = new Thread(children::close, "divvy-run-shutdown");
        Runtime.getRuntime().addShutdownHook(killChildren);
        try {
            final int code = runOnAllNodes(node, config, children, problem, out);
            final List<String> problems = children.awaitExits(code, CHILD_EXIT_TIMEOUT_MS);
            if (!problems.isEmpty()) {
                problems.forEach(p -> err.println("divvy run: " + p));
                return EXIT_FAILED;
            }
            out.println("divvy run: " + children.summary(code));
            return code;
        } catch (final RuntimeException e) {
            err.println("divvy run failed: " + (e instanceof DivvyException ? e.getMessage() : e.toString()));
            children.expectExits();
            Deadlines.bounded("divvy run: terminating", () -> node.terminate(EXIT_FAILED), NODE_STOP_TIMEOUT_MS, err);
            children.awaitExits(EXIT_FAILED, FAILURE_GRACE_MS);
            return EXIT_FAILED;
        } finally {
            children.close();
            if (!Deadlines.bounded("divvy run: closing node 0", node::close, NODE_CLOSE_TIMEOUT_MS, err)) {
                err.println("divvy run: node 0 still closing after " + NODE_CLOSE_TIMEOUT_MS + " ms; exiting anyway");
            }
            try {
                Runtime.getRuntime().removeShutdownHook(killChildren);
            } catch (final IllegalStateException e) {
                // The JVM is shutting down: the hook runs anyway.
            }
        }
    }

    /**
     * {@code config} with its cluster secret: the configured one (a file, or {@code $DIVVY_SECRET}), else a new
     * one for this run's local nodes only. Remote nodes cannot know a new one: awaiting them needs a configured one.
     */
    static NodeConfig withSecret(final NodeConfig config, final int remoteNodes) {
        if (config.clusterSecret() != null) {
            return config;
        }
        if (remoteNodes > 0) {
            throw new DivvyException("--await needs a cluster secret the remote nodes share: " +
                NodeConfig.missingSecretMessage().substring("no cluster secret: ".length()));
        }
        return config.toBuilder().secret(ClusterSecret.generate()).build();
    }

    /**
     * Starts the children, awaits the members, submits the app's root; returns the exit code it ended the computation
     * with.
     */
    private int runOnAllNodes(final DivvyNode node, final NodeConfig config, final ChildNodes children,
        final Problem<?> problem, final PrintStream out) {
        final String endpoint = node.endpoint();
        final String joinAddress = config.join() != null ? config.join() : endpoint;
        out.println("divvy run: local node 0 (this process, pid " + ProcessHandle.current().pid() + ", site "
            + config.site() + ") at " + endpoint
            + (config.join() != null ? ", registry " + config.join() : ", hosting the registry"));
        if (run.remoteNodes() > 0) {
            out.println("divvy run: waiting for " + run.remoteNodes() + " remote node(s); on each machine run:");
            final List<String> flags = NodeSettingOptions.flags(config, REMOTE_SETTINGS);
            out.println("  divvy node --join " + joinAddress + " --bind <its address> --site <NAME>"
                + (flags.isEmpty() ? "" : " " + String.join(" ", flags)));
        }
        final SiteLayout layout = run.layout();
        final FaultInjector.NodeStarter startChild = (k, count, site) ->
            startChild(children, config, joinAddress, k, count, site);
        // consecutive children of one site share a process, up to --nodes-per-process of them
        for (final int[] process : FaultInjector.NodeStarter.processes(1, layout.nodes(), run.nodesPerProcess(),
            layout::siteOf)) {
            startChild.start(process[0], process[1], layout.siteOf(process[0]));
        }
        final int members = layout.nodes() + run.remoteNodes();
        final long joinWaitMs = TimeUnit.SECONDS.toMillis(run.joinWaitSeconds());
        Deadlines.race("await-members", () -> {
            node.awaitMembers(members, Duration.ofMillis(joinWaitMs));
            return null;
        }, children.death(), joinWaitMs + 5_000, "only some of " + members + " nodes joined within "
            + run.joinWaitSeconds() + " s (--join-wait-seconds)");
        out.println("divvy run: all " + members + " nodes joined; running " + run.app().name());
        children.awaitNodeIds(JOINED_LINES_TIMEOUT_MS);
        out.println("divvy run: " + expectedMaster(node, config, children));
        children.startRun();
        AppResult result = null;
        final Progress progress = Progress.start(run.app().name(), run.app().common().progressSeconds(), out);
        try {
            // Warm-up runs on the same nodes: the reported run then measures the computation, not the JIT compilers
            // that compete with the workers for the cores during a JVM's first seconds of work.
            for (int warmup = 1; warmup <= run.warmupRuns() && result == null; warmup++) {
                final AppResult warm = solveWithinTimeout(node, problem, members, children);
                out.printf(Locale.ROOT, "divvy run: warm-up run %d of %d: %s, wall time %.3f s%n", warmup,
                    run.warmupRuns(), warm.check().verdict(), warm.elapsedNs() / 1e9);
                if (!warm.passed()) {
                    result = warm; // reported as the run: a wrong answer needs no timed run after it
                }
            }
            if (result == null) {
                // closed (events not yet due cancelled) before the computation ends, so no node starts after it
                try (FaultInjector faults = FaultInjector.start(run.faults(), children, startChild,
                    run.nodesPerProcess(), out)) {
                    result = solveWithinTimeout(node, problem, members, children);
                }
            }
        } finally {
            progress.close();
        }
        synchronized (out) {
            out.print(result.report());
        }
        final int code = result.passed() ? EXIT_OK : EXIT_FAILED;
        children.expectExits();
        if (!Deadlines.bounded("divvy run: terminating", () -> node.terminate(code), NODE_STOP_TIMEOUT_MS, out)) {
            throw new DivvyException("ending the computation took longer than " + NODE_STOP_TIMEOUT_MS + " ms");
        }
        return code;
    }

    /**
     * Starts local child nodes {@code k} to {@code k + count - 1} in {@code site}, in one process: {@code divvy node
     * --join joinAddress} with node 0's settings, its own site and ({@code --nodes count} if several) the cluster
     * secret in its environment. Throws {@link DivvyException} if its JVM cannot start.
     */
    private void startChild(final ChildNodes children, final NodeConfig config, final String joinAddress, final int k,
        final int count, final String site) {
        final List<String> args = new ArrayList<>(List.of("node", "--join", joinAddress, "--site", site,
            "--workers", String.valueOf(config.workers())));
        if (count > 1) {
            args.addAll(List.of("--nodes", String.valueOf(count)));
        }
        args.addAll(NodeSettingOptions.flags(config, CHILD_SETTINGS));
        // A process of one node gets a directory named so that the launcher removes it after the child died, and
        // any node start (DriverDirectories) once both are dead. The drivers of a process of several nodes each
        // need their own: they name them for the child's pid (DriverDirectories), removed once it is dead.
        final Path aeronDir = count > 1 ? null : Path.of(CommonContext.AERON_DIR_PROP_DEFAULT + "-divvy-"
            + ProcessHandle.current().pid() + "-node" + k);
        final List<String> jvmOptions = aeronDir == null ? List.of()
            : List.of("-D" + CommonContext.AERON_DIR_PROP_NAME + "=" + aeronDir);
        // The secret goes in the child's environment, never on its command line (ps shows that); a secret
        // file is passed as its path with the other settings.
        final Map<String, String> environment = config.secretFile() != null ? Map.of()
            : Map.of(ClusterSecret.ENVIRONMENT_VARIABLE, config.clusterSecret().text());
        // a process of several nodes: the default largest heap (and the collector that follows it) is per node
        final ChildCommand command = count == 1 ? childCommand : childCommand.withJvmOptions(run.childJvmOptions(count));
        children.start(k, count, site, command.command(jvmOptions, args), aeronDir, environment);
    }

    /**
     * Who the registry gives the root to, as far as this run can tell ({@link ChildNodes#expectedMaster()}): the
     * registry chooses, by a rule this repeats, among members this run may not all know.
     */
    private String expectedMaster(final DivvyNode node, final NodeConfig config, final ChildNodes children) {
        final String rule = "the member with the lowest node id other than node 0"
            + (node.nodeId() == 0 ? "" : " (node id " + node.nodeId() + ")");
        final String master = children.expectedMaster().orElse(null);
        if (run.remoteNodes() > 0) {
            return "the registry gives the root to " + rule + (master == null ? "" : ": " + master + " or a remote node")
                + "; if the master dies, to the next";
        }
        if (master == null) {
            return "node 0 is alone, so the registry gives the root to node 0 itself";
        }
        return "the registry gives the root to " + master + ": " + rule
            + (config.join() != null ? ", unless nodes of other runs joined the registry at " + config.join() : "")
            + "; if it dies, to the next";
    }

    private AppResult solveWithinTimeout(final DivvyNode node, final Problem<?> problem, final int members,
        final ChildNodes children) {
        return Deadlines.within("run", () -> solve(node, problem, members, children),
            TimeUnit.SECONDS.toMillis(run.timeoutSeconds()),
            run.app().name() + " did not finish within " + run.timeoutSeconds() + " s (--timeout-seconds)");
    }

    private <T> AppResult solve(final DivvyNode node, final Problem<T> problem, final int members,
        final ChildNodes children) {
        final NetworkStatistics before = node.networkStatistics();
        final RunReport<T> result = node.submit(problem.root());
        final NetworkStatistics node0 = node.networkStatistics().minus(before);
        final T answer = result.value();
        final String master = result.masterId() == node.nodeId() ? "node 0 (this process, node id " + node.nodeId() + ")"
            : children.nameOfNodeId(result.masterId()).orElse("node id " + result.masterId() + " (not started by this run)");
        final String statistics = "master: " + master + "; takeovers: " + result.takeovers() + "\n"
            + "the master's statistics (its run of the root):\n" + result.masterStatistics().stripTrailing() + "\n"
            + "node 0's jobs since it started: " + node.jobCounts() + "\n"
            + "node 0's network statistics during the run:\n" + node0;
        final AppResult report = new AppResult(run.app().name(),
            "divvy, " + members + " nodes, " + run.workersPerNode() + " workers per local node, "
                + run.nodeConfig().policy(),
            problem.describe(answer), problem.check(answer), result.elapsedNs(), statistics);
        problem.afterRun(answer);
        return report;
    }

    private String describeNodes(final SiteLayout layout) {
        final String local = layout.nodes() + " local node(s)"
            + (layout.sites().size() > 1 ? " in sites " + layout : "");
        return run.remoteNodes() > 0 ? local + " + " + run.remoteNodes() + " remote node(s)" : local;
    }
}
