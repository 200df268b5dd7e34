package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import io.aeron.CommonContext;

import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.examples.ExampleApp;
import org.divvy.examples.Options;
import org.divvy.examples.fib.FibApp;
import org.divvy.examples.portable.PortableApp;
import org.divvy.examples.knapsack.KnapsackApp;
import org.divvy.examples.barneshut.BarnesHutApp;
import org.divvy.examples.locusroute.LocusRouteApp;
import org.divvy.examples.sat.SatApp;
import org.divvy.examples.tsp.TspApp;
import org.divvy.examples.mergesort.MergeSortApp;
import org.divvy.examples.nqueens.NQueensApp;
import org.divvy.examples.raytracer.RayTracerApp;
import org.divvy.examples.uts.UtsApp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code divvy run --nodes N [--sites A:2,B:2] [node settings] <app> [app options]}: runs an app on N
 * nodes on this machine. This process is node 0: it hosts the registry (unless {@code --join} names a
 * standalone one), starts N-1 child JVMs that join it, waits until all nodes (and {@code --await} remote
 * ones) have joined, and submits the app's root to the registry, which gives it to a master: the member with
 * the lowest id but node 0 (node 0 itself if it is alone), and, if that master dies, to the next, which runs the
 * root again reusing the saved work. Node 0 works on the run like the others, prints the answer, PASS/FAIL, who
 * the master was and the statistics, then ends the computation on every node.
 *
 * <p>Every node setting of {@link NodeSettings} is a flag ({@code --policy rs}, {@code --workers 1},
 * {@code --acceptable-heartbeat-pause-ms 10000}, ...; see {@link NodeSettingOptions}) except {@code --networked}
 * (a run is networked) and {@code --site} ({@code --sites} places each node). Node 0 runs with them, and
 * every child gets those that differ from the defaults, but its own port, site and registry address.
 *
 * <p>Fault injection ({@link FaultSchedule}): {@code --kill-at}, {@code --kill-site}, {@code --leave-at}, {@code
 * --leave-site} and {@code --join-at} kill local child nodes, make them leave gracefully or start new ones at given
 * times after the app started, so each crash, leave and migration scenario of the fault-tolerance work is one
 * reproducible command. A child that dies or leaves during the run is survived: the other nodes recover its work
 * (reusing what a leaver handed over), and if it was the master, a new master runs the root again ({@code --kill-at
 * master@S}). Node 0 cannot be stopped: it hosts the registry and prints the answer.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Runs an app on several nodes: this process (node 0: the registry, and it prints the answer) and "
        + "N-1 local child JVMs, plus remote nodes that join it (--await); the registry gives the app's root to a "
        + "master among the others, and to a new one if it dies.",
    subcommands = {FibApp.class, NQueensApp.class, KnapsackApp.class, RayTracerApp.class, MergeSortApp.class,
        UtsApp.class, TspApp.class, SatApp.class, BarnesHutApp.class, LocusRouteApp.class, PortableApp.class},
    modelTransformer = NodeSettingOptions.AddOptions.class,
    footer = {"", "Examples:",
        "  divvy run --nodes 4 --sites A:2,B:2 --policy crs --workers 1 fib -n 30",
        "  faults: divvy run --nodes 3 --workers 1 --kill-at 2@1.5 --join-at 3 nqueens -n 16",
        "  master takeover: divvy run --nodes 3 --workers 1 --kill-at master@1.5 nqueens -n 16",
        "  migration: divvy run --nodes 3 --workers 1 --join-at 1x2 --leave-at 1@2,2@2 nqueens -n 16",
        "  two machines: on 192.168.1.10  divvy run --nodes 1 --bind 192.168.1.10 --port 40123 --await 1 uts",
        "                on the other     divvy node --join 192.168.1.10:40123 --bind <its address> --site B"})
public final class RunCommand implements CliCommand, NodeSettingOptions.Owner {
    /**
     * Ordinary JVM options of each child, so dozens of nodes fit in memory: the serial collector (G1's own
     * structures were ~50 MiB of a node), a heap that starts at 16 MiB and grows only as the live data needs (at
     * the JVM's default start, 1/64 of the machine's memory, the young generation alone is over 100 MiB, and all of
     * it becomes resident once the node has allocated that much), and at most 512 MiB (a 10M-int mergesort's
     * arrays fit). {@code --jvm-opt} replaces only the defaults it chooses, and a largest heap above 1 GiB makes
     * G1 the default collector ({@link NodeJvmOptions}). README, "Memory of a node".
     */
    public static final List<String> DEFAULT_CHILD_JVM_OPTIONS = NodeJvmOptions.ofChild(List.of());

    @Option(names = "--nodes", paramLabel = "N",
        description = "nodes on this machine, this process included (default: ${DEFAULT-VALUE})")
    int nodes = 1;

    @Option(names = "--sites", paramLabel = "NAME:COUNT,...",
        description = "site of each local node, in order: A:2,B:2 puts nodes 0-1 in A, 2-3 in B; counts add up "
            + "to --nodes (default: all in one site)")
    String sites;

    @Option(names = "--nodes-per-process", paramLabel = "K",
        description = "local child nodes per JVM: consecutive children of one site share a process, K at most "
            + "(each its own node, endpoint and media driver), so many nodes fit a small machine and a killed "
            + "process is a crash of all its nodes at once; node 0 stays alone (default: ${DEFAULT-VALUE})")
    int nodesPerProcess = 1;

    @Option(names = "--await", paramLabel = "R",
        description = "also wait for R remote nodes (divvy node --join <this address>) before running "
            + "(default: ${DEFAULT-VALUE})")
    int remoteNodes;

    @Option(names = "--join-wait-seconds", paramLabel = "S",
        description = "how long to wait for all nodes to join (default: ${DEFAULT-VALUE})")
    int joinWaitSeconds = 60;

    @Option(names = "--timeout-seconds", paramLabel = "S",
        description = "fail the run if the app has not finished after S seconds; 0 = no limit "
            + "(default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = "--warmup-runs", paramLabel = "N",
        description = "run the app N times before the run that is reported, on the same nodes (each answer checked, "
            + "its wall time printed), so the reported run finds the nodes' JIT compilers done; faults are timed "
            + "from the reported run's start (default: ${DEFAULT-VALUE})")
    int warmupRuns;

    @Option(names = "--jvm-opt", paramLabel = "OPT",
        description = "a JVM option of each child node, repeatable; defaults -XX:+UseSerialGC -Xms16m -Xmx512m, "
            + "each replaced by an option that chooses the same (a collector, -Xms, -Xmx); with -Xmx above 1g the "
            + "default collector is G1; with --nodes-per-process K the default -Xmx is K times 512m and a chosen one is "
            + "the whole process's")
    List<String> childJvmOptions = new ArrayList<>();

    @Option(names = FaultSchedule.KILL_AT, paramLabel = "K@S[,K@S...]",
        description = "fault injection: SIGKILL local child node K (1 to N-1, or a node of --join-at) S seconds "
            + "after the app started (decimals allowed: 2.5); K = master: the child that is the master then; "
            + "repeatable. The run goes on: the other nodes recover its work, and a dead master's root goes to a "
            + "new master. Node 0, this process, cannot be killed: it hosts the registry and prints the answer")
    List<String> killAt = new ArrayList<>();

    @Option(names = FaultSchedule.KILL_SITE, paramLabel = "NAME@S[,...]",
        description = "fault injection: SIGKILL every local child node of site NAME (of --sites) S seconds after the "
            + "app started; repeatable. Not the site of node 0 (this process)")
    List<String> killSite = new ArrayList<>();

    @Option(names = FaultSchedule.LEAVE_AT, paramLabel = "K@S[,K@S...]",
        description = "graceful leave: SIGTERM local child node K (as --kill-at; K = master too) S seconds after the "
            + "app started; it hands what it finished to a staying node, which the others reuse; repeatable. "
            + "With --join-at before it, a migration")
    List<String> leaveAt = new ArrayList<>();

    @Option(names = FaultSchedule.LEAVE_SITE, paramLabel = "NAME@S[,...]",
        description = "graceful leave of every local child node of site NAME (as --kill-site) S seconds after the "
            + "app started; repeatable")
    List<String> leaveSite = new ArrayList<>();

    @Option(names = FaultSchedule.JOIN_AT, paramLabel = "S[xCOUNT][@SITE][,...]",
        description = "start COUNT (default 1) more local nodes S seconds after the app started; they join the "
            + "running computation and steal. Numbered on from --nodes in the order they start, in the last site of "
            + "--sites unless @SITE names one; repeatable")
    List<String> joinAt = new ArrayList<>();

    /** Node settings as flags: all but networked (a run is) and site (from --sites). */
    private final NodeSettingOptions nodeSettings =
        new NodeSettingOptions(NodeSettingOptions.allBut(NodeSettings.NETWORKED, NodeSettings.SITE));

    private ExampleApp app;
    /** Node 0's configuration, built by {@link #validate()}. */
    private NodeConfig nodeConfig;
    /** The faults to inject, parsed and checked by {@link #validate()}. */
    private FaultSchedule faults = FaultSchedule.NONE;

    public RunCommand() {
    }

    /** The app to run, parsed from the sub-command after the run options. */
    public void app(final ExampleApp app) {
        this.app = app;
    }

    public ExampleApp app() {
        return app;
    }

    /** Where each local node goes; valid after {@link #validate()}. */
    public SiteLayout layout() {
        return SiteLayout.parse(sites, nodes);
    }

    /** The worker count of every local node: the run's {@code --workers}, else the app's; after {@link #validate()}. */
    public int workersPerNode() {
        return nodeConfig.workers();
    }

    /**
     * Node 0's configuration, valid after {@link #validate()}: networked, in the first site of the layout,
     * with every node-setting flag given.
     */
    public NodeConfig nodeConfig() {
        return nodeConfig;
    }

    @Override
    public NodeSettingOptions nodeSettings() {
        return nodeSettings;
    }

    public int nodes() {
        return nodes;
    }

    /** The nodes to kill and to start during the run ({@code --kill-at}, {@code --kill-site}, {@code --join-at}); after {@link #validate()}. */
    public FaultSchedule faults() {
        return faults;
    }

    /** The most local child nodes in one JVM ({@code --nodes-per-process}). */
    public int nodesPerProcess() {
        return nodesPerProcess;
    }

    public int remoteNodes() {
        return remoteNodes;
    }

    public int joinWaitSeconds() {
        return joinWaitSeconds;
    }

    public int timeoutSeconds() {
        return timeoutSeconds;
    }

    /** Runs of the app before the reported one ({@code --warmup-runs}). */
    public int warmupRuns() {
        return warmupRuns;
    }

    public List<String> childJvmOptions() {
        return childJvmOptions(1);
    }

    /**
     * The JVM options of a child process of {@code nodes} nodes: the default largest heap is per node, a chosen one
     * ({@code --jvm-opt=-Xmx...}) the whole process's ({@link NodeJvmOptions#ofChild(List, int)}).
     */
    public List<String> childJvmOptions(final int nodes) {
        return NodeJvmOptions.ofChild(childJvmOptions, nodes);
    }

    @Override
    public void validate() {
        Options.inRange("--nodes", nodes, 1, FaultSchedule.MAX_LOCAL_NODES);
        final SiteLayout layout = layout();
        Options.inRange("--nodes-per-process", nodesPerProcess, 1, FaultSchedule.MAX_LOCAL_NODES);
        if (nodesPerProcess > 1
            && childJvmOptions.stream().anyMatch(o -> o.startsWith("-D" + CommonContext.AERON_DIR_PROP_NAME + "="))) {
            throw new IllegalArgumentException("--jvm-opt=-D" + CommonContext.AERON_DIR_PROP_NAME + " with --nodes-per-process "
                + nodesPerProcess + ": the nodes of one process each need a directory of their own; leave it unset");
        }
        Options.inRange("--await", remoteNodes, 0, 1024);
        Options.atLeast("--join-wait-seconds", joinWaitSeconds, 1);
        Options.atLeast("--timeout-seconds", timeoutSeconds, 0);
        Options.inRange("--warmup-runs", warmupRuns, 0, 100);
        faults = FaultSchedule.parse(killAt, killSite, leaveAt, leaveSite, joinAt, layout, remoteNodes);
        if (app != null && app.common().sequential()) {
            throw new IllegalArgumentException("--sequential runs on no node: use 'divvy " + app.name()
                + " --sequential' instead of 'divvy run ... " + app.name() + " --sequential'");
        }
        final NodeConfig.Builder node0 = NodeConfig.builder().networked(true).site(layout.siteOf(0));
        if (app != null) {
            node0.workers(app.common().workers()); // the run's --workers, if given, overrides it below
        }
        nodeConfig = nodeSettings.build(node0);
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        return new NodeZeroRun(this, ChildCommand.ofThisJvm(childJvmOptions())).execute(out, err);
    }
}
