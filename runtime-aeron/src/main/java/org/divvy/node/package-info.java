/**
 * A node's network half, assembled: {@link org.divvy.node.NetworkNode} builds the transport and every
 * mechanism (membership, stealing, results, lifecycle), registers each mechanism's messages with the
 * dispatcher and its duty with the agent, and runs the agent. It is the one place that knows them all.
 *
 * <p>Threads: built and closed by the node's owner; once started, the mechanisms' state belongs to the
 * agent thread, and application threads use only the lifecycle monitor, statistics and close.
 */
package org.divvy.node;
