package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.NodeSettings;
import org.divvy.examples.Options;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code divvy leave --join HOST:PORT NODE_ID...}: asks the registry of a running computation to make members leave
 * gracefully (thesis §3.5): each hands what it finished to a staying node, which the others reuse, and exits. The
 * ids are the runtime's node ids, as the nodes print them ({@code node id 3 (...) joined ...}). This process is no
 * member: it proves it holds the cluster secret (DIVVY_SECRET or {@code --secret-file}, as the nodes) by the
 * registry's challenge, prints the registry's answer, a line per node, and exits 0 if every node named was asked to
 * leave, 1 if not (the answer says why: the registry's own host, a submitter waiting for its value, the last member,
 * an unknown or gone one) or if the registry did not answer.
 */
@Command(name = "leave", mixinStandardHelpOptions = true,
    description = "Asks the registry of a running computation to make nodes leave gracefully (their finished work "
        + "goes to a staying node). With --join-at before it, a migration.",
    modelTransformer = NodeSettingOptions.AddOptions.class,
    footer = {"", "Example: divvy leave --join 192.168.1.10:40123 3 4"})
public final class LeaveCommand implements CliCommand, NodeSettingOptions.Owner {
    /** The settings a requester uses: the registry's address, its own, its driver, the secret and the wait. */
    private final NodeSettingOptions nodeSettings = new NodeSettingOptions(NodeSettingOptions.only(NodeSettings.JOIN,
        NodeSettings.BIND, NodeSettings.PORT, NodeSettings.AERON_DIRECTORY, NodeSettings.TERM_LENGTH_BYTES,
        NodeSettings.JOIN_TIMEOUT_MS, NodeSettings.SECRET_FILE));

    @Parameters(paramLabel = "NODE_ID", arity = "1..*",
        description = "the node ids to leave, as the nodes printed them (node id 3 (...) joined ...)")
    List<Integer> nodeIds = new ArrayList<>();

    private NodeConfig config;

    public LeaveCommand() {
    }

    @Override
    public NodeSettingOptions nodeSettings() {
        return nodeSettings;
    }

    @Override
    public void validate() {
        if (!nodeSettings.isGiven(NodeSettings.JOIN)) {
            throw new IllegalArgumentException("Missing required option: '" + NodeSettings.JOIN.flag() + "="
                + NodeSettings.JOIN.valueLabel() + "': the registry's address (the one the nodes joined)");
        }
        for (final int id : nodeIds) {
            Options.atLeast("NODE_ID", id, 0);
        }
        config = nodeSettings.build(NodeConfig.builder().networked(true));
    }

    @Override
    public int execute(final PrintStream out, final PrintStream err) {
        final String answer;
        try {
            answer = DivvyNode.askToLeave(config, nodeIds.stream().mapToInt(Integer::intValue).toArray());
        } catch (final DivvyException e) {
            err.println("divvy leave: " + e.getMessage());
            return 1;
        }
        boolean allAsked = true;
        for (final String line : answer.split("\n")) {
            out.println("divvy leave: " + line);
            allAsked &= line.contains(": asked to leave");
        }
        return allAsked ? 0 : 1;
    }
}
