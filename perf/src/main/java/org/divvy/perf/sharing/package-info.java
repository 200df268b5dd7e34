/** What shared objects cost on one node: the replica's read-write lock around every call, at LocusRoute's write rates. */
package org.divvy.perf.sharing;
