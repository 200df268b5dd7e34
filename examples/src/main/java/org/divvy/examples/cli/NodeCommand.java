package org.divvy.examples.cli;

import java.io.PrintStream;

import org.divvy.NodeConfig;
import io.aeron.CommonContext;
import org.divvy.NodeSettings;
import org.divvy.examples.Options;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code divvy node --join HOST:PORT [--site NAME] [node settings]}: a node that joins a running
 * computation (the registry of a {@code divvy run}'s node 0, or a {@code divvy registry}), works (and runs a
 * root if the registry makes it the master) until the computation ends, and exits with its exit code (1 if it
 * cannot join or loses the registry). Every node setting of {@link NodeSettings} but {@code --networked} is a flag
 * ({@link NodeSettingOptions}); {@code --join} is required. {@code --nodes K} starts K nodes in this one process
 * (each its own node, endpoint and embedded media driver, all with these settings): what {@code divvy run
 * --nodes-per-process} starts, so that many nodes fit a small machine and a site's nodes crash together.
 */
@Command(name = "node", mixinStandardHelpOptions = true,
    description = "Starts a node that joins a running computation and exits when the computation ends.",
    modelTransformer = NodeSettingOptions.AddOptions.class)
public final class NodeCommand implements CliCommand, NodeSettingOptions.Owner {
    /** Node settings as flags: all but networked, which this command always is. */
    private final NodeSettingOptions nodeSettings =
        new NodeSettingOptions(NodeSettingOptions.allBut(NodeSettings.NETWORKED));
    /** The node's configuration, built by {@link #validate()}. */
    private NodeConfig nodeConfig;

    @Option(names = "--nodes", paramLabel = "K",
        description = "nodes in this process, each with its own endpoint and media driver and these settings; they "
            + "crash together when the process dies (default: ${DEFAULT-VALUE})")
    int nodesInProcess = 1;

    public NodeCommand() {
    }

    @Override
    public NodeSettingOptions nodeSettings() {
        return nodeSettings;
    }

    /** The node's configuration; valid after {@link #validate()}. */
    public NodeConfig nodeConfig() {
        return nodeConfig;
    }

    public String join() {
        return nodeConfig.join();
    }

    public String site() {
        return nodeConfig.site();
    }

    /** How many nodes this process starts ({@code --nodes}). */
    public int nodesInProcess() {
        return nodesInProcess;
    }

    public int workers() {
        return nodeConfig.workers();
    }

    @Override
    public void validate() {
        if (!nodeSettings.isGiven(NodeSettings.JOIN)) {
            throw new IllegalArgumentException("Missing required option: '" + NodeSettings.JOIN.flag() + "="
                + NodeSettings.JOIN.valueLabel() + "': the address divvy run printed, or a divvy registry's");
        }
        nodeConfig = nodeSettings.build(NodeConfig.builder().networked(true));
        Options.inRange("--nodes", nodesInProcess, 1, FaultSchedule.MAX_LOCAL_NODES);
        if (nodesInProcess > 1 && nodeConfig.port() != 0) {
            throw new IllegalArgumentException("--port " + nodeConfig.port() + " with --nodes " + nodesInProcess
                + ": the nodes of one process cannot share a port; leave --port at 0 (any free port)");
        }
        if (nodesInProcess > 1 && nodeConfig.aeronDirectory() == null
            && System.getProperty(CommonContext.AERON_DIR_PROP_NAME) != null) {
            throw new IllegalArgumentException("-D" + CommonContext.AERON_DIR_PROP_NAME + " with --nodes "
                + nodesInProcess + ": each node's embedded media driver needs a directory of its own; leave the "
                + "property unset (each gets its own) or name an external driver with "
                + NodeSettings.AERON_DIRECTORY.flag());
        }
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        return new WorkerNode(this).execute(out, err);
    }
}
