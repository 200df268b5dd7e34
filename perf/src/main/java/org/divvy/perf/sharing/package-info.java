/**
 * What shared objects cost and gain: the replica's read-write lock around every call on one node, at LocusRoute's
 * write rates ({@code ReplicaLockCost}); divide and share against pure divide and conquer on 1 and 4 nodes
 * ({@code ShareVsConquer}, {@code divvy-perf ds-vs-dc}).
 */
package org.divvy.perf.sharing;
