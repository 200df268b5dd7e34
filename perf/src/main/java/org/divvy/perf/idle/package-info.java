/**
 * The idle cost of a node: {@link org.divvy.perf.idle.IdleCost} starts idle nodes as processes and
 * reports each one's CPU share and resident memory.
 */
package org.divvy.perf.idle;
