package org.divvy.codegen;

/**
 * Implemented by the replica subclass the processor generates for each {@code @SharedObject} class
 * ({@code BoundShared extends Bound}): the runtime reaches a replica's id, lock and node through it.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable).
 */
public interface SharedReplica {
    /** The replica's runtime state; null only while the shared class's own constructor runs. */
    ReplicaCore divvyReplica();
}
