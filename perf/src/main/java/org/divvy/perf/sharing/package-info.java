/**
 * What shared objects cost: on one node, the replica's read-write lock around every call at LocusRoute's write rates
 * ({@code ReplicaLockCost}); across sites, the time a write takes to reach every replica ({@code WriteLatencyMain}).
 */
package org.divvy.perf.sharing;
