package org.divvy;

/**
 * A job stolen by another node threw there. Exceptions do not travel as objects (no Java
 * serialization): this carries the remote exception's class name, message and stack trace as text,
 * and names the node. It reaches the owner's {@code sync()} like a local child's exception.
 */
public class RemoteJobException extends DivvyException {
    private static final long serialVersionUID = 1L;

    private final String remoteClassName;
    private final String remoteMessage;
    private final String remoteStackTrace;
    private final int nodeId;

    public RemoteJobException(final String jobName, final int nodeId, final String remoteClassName, final String remoteMessage,
        final String remoteStackTrace) {
        super("job `" + jobName + "` failed on node " + nodeId + " with " + remoteClassName +
            (remoteMessage == null || remoteMessage.isEmpty() ? "" : ": " + remoteMessage));
        this.remoteClassName = remoteClassName;
        this.remoteMessage = remoteMessage;
        this.remoteStackTrace = remoteStackTrace;
        this.nodeId = nodeId;
    }

    /** The binary name of the exception class thrown on the remote node. */
    public String remoteClassName() {
        return remoteClassName;
    }

    /** Its message, or empty. */
    public String remoteMessage() {
        return remoteMessage;
    }

    /** Its stack trace as printed on the remote node (possibly cut to fit a message). */
    public String remoteStackTrace() {
        return remoteStackTrace;
    }

    /** The node the job ran on. */
    public int nodeId() {
        return nodeId;
    }

    @Override
    public String toString() {
        return super.toString() + (remoteStackTrace == null || remoteStackTrace.isEmpty() ? "" :
            "\nremote stack trace:\n" + remoteStackTrace);
    }
}
