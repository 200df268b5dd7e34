package org.divvy.codegen;

/**
 * A node's table of shared-object replicas, as the job codecs see it (implemented by the shared-data
 * module, set on the readers and writers the network half encodes and decodes jobs with). A shared
 * object passed to a spawnable travels as its id: the writer {@link #attach}es it to the node that sends
 * it (from then on its writes are shipped), and the reader {@link #resolve}s the id to this node's
 * replica, making an empty one to be fetched from {@code sourceNodeId} when there is none yet.
 */
public interface SharedObjectContext {
    /** {@code core} is being sent to another node: register it here so its writes are shipped. */
    void attach(ReplicaCore core);

    /**
     * The replica of {@code id} on this node, or a new empty one of {@code type}, registered and marked to
     * be fetched from {@code sourceNodeId} before a job that uses it runs.
     */
    Object resolve(long id, SharedObjectType<?> type, int sourceNodeId);
}
