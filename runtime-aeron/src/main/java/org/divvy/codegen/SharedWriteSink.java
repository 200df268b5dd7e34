package org.divvy.codegen;

/**
 * Where a replica's writes go to be shipped: the node the replica belongs to (implemented by the
 * shared-data module). A write is recorded in two steps so its arguments are encoded straight into the
 * node's outgoing buffer: {@link #beginShip} returns the writer to encode them into (the sink is locked
 * until {@link #endShip}), {@link #endShip} completes or drops the record.
 */
public interface SharedWriteSink {
    /** Starts the record of write {@code methodId} on {@code core}; the returned writer takes its arguments. */
    WireWriter beginShip(ReplicaCore core, int methodId);

    /** Ends the record started by {@link #beginShip}: kept when {@code complete}, dropped when its encoding failed. */
    void endShip(ReplicaCore core, WireWriter arguments, boolean complete);
}
