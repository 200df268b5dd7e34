/**
 * Shared objects (Satin++ divide-and-share): replicas on every node that uses them, write methods
 * shipped to every replica, guards checked before stolen jobs run, replicas fetched on demand from
 * the node a job came from. The annotations are in {@code org.divvy.annotations}; the replication
 * protocol arrives with the shared-objects work and will live in this package.
 */
package org.divvy.sharing;
