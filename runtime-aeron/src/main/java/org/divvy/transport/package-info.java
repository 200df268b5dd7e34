/**
 * Aeron UDP transport of one node: the Aeron client (with an embedded driver in INVOKER mode by
 * default, or a client of an external driver), the node's one subscription on its own endpoint, one
 * lazily created {@link io.aeron.ExclusivePublication} per peer ({@link org.divvy.transport.Link}),
 * bounded per-peer outbound queues for back pressure and unconnected peers, and chunking with bounded
 * reassembly for messages above a publication's maximum message length.
 *
 * <p>All state here is owned by the network agent thread: the driver and client conductor are stepped
 * from its duty cycle, and publications are single-writer. Only the counters
 * ({@link org.divvy.transport.TrafficCounters}) may be read by other threads.
 */
package org.divvy.transport;
