package org.divvy;

/**
 * A node died (or left) while it ran a job stolen from this node, so that job has no result. Until
 * fault tolerance re-runs lost work, the job's parent sees this exception at its sync and, unless
 * caught, the run ends with it.
 */
public class NodeFailedException extends DivvyException {
    private static final long serialVersionUID = 1L;

    private final int nodeId;

    public NodeFailedException(final String message, final int nodeId) {
        super(message);
        this.nodeId = nodeId;
    }

    /** The node that failed. */
    public int nodeId() {
        return nodeId;
    }
}
