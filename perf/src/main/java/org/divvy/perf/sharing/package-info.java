/**
 * What shared objects cost and gain: the replica's read-write lock around every call on one node, at LocusRoute's
 * write rates ({@code ReplicaLockCost}); across sites, the time a write takes to reach every replica
 * ({@code WriteLatencyMain}); the broadcast traffic with and without combining ({@code SharedTraffic}); divide and
 * share against pure divide and conquer on 1 and 4 nodes ({@code ShareVsConquer}, {@code divvy-perf ds-vs-dc}).
 */
package org.divvy.perf.sharing;
