/**
 * Stealing between nodes: the bridge between a node's scheduler and its network agent
 * ({@link org.divvy.stealing.RemoteStealing}), the steal policies RS and CRS as pure objects
 * ({@link org.divvy.stealing.StealStrategy}), the jobs given to remote thieves (outstanding jobs, thesis
 * §3.2; {@link org.divvy.stealing.GivenJobs}) and the jobs run here for remote owners
 * ({@link org.divvy.stealing.ForeignJobs}).
 *
 * <p>Threads: everything here runs on the network agent thread (single writer), except the two
 * {@link org.divvy.scheduling.RemoteLink} calls, which workers make and which only enqueue.
 */
package org.divvy.stealing;
