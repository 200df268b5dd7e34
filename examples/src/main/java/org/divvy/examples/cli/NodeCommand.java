package org.divvy.examples.cli;

import java.io.PrintStream;

import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import picocli.CommandLine.Command;

/**
 * {@code divvy node --join HOST:PORT [--site NAME] [node settings]}: a node that joins a running
 * computation (the registry of a {@code divvy run}'s node 0, or a {@code divvy registry}), works (and runs a
 * root if the registry makes it the master) until the computation ends, and exits with its exit code (1 if it
 * cannot join or loses the registry). Every node setting of {@link NodeSettings} but {@code --networked} is a flag
 * ({@link NodeSettingOptions}); {@code --join} is required.
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
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        return new WorkerNode(this).execute(out, err);
    }
}
