/**
 * Shared objects (Satin++ divide-and-share, thesis §5): replicas on every node that uses them, write
 * methods shipped to every replica, guards checked before jobs from other nodes run, replicas fetched
 * on demand from the node a job came from. The annotations are in {@code org.divvy.annotations}; the
 * processor generates each shared class's replica subclass; this package is the node's side.
 *
 * <p>Threads. {@link org.divvy.sharing.SharingAgent} (message types SO_UPDATE, SO_REPLICA_REQUEST,
 * SO_REPLICA_REPLY; its fetches and holders) belongs to the network agent thread. Workers write into
 * the {@link org.divvy.sharing.WriteOutbox} under its lock and apply what arrived at safe points
 * ({@link org.divvy.sharing.SafePoints}, one worker at a time). The replica table is concurrent (jobs are
 * decoded on the agent and on the codec thread). Each replica is guarded by its own read-write lock.
 */
package org.divvy.sharing;
