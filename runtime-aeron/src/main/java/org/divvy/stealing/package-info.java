/**
 * Stealing between nodes: the steal protocol (STEAL_REQUEST, STEAL_REPLY), its two sides
 * ({@link org.divvy.stealing.Thief}, which asks peers for work while the node is out of it, and
 * {@link org.divvy.stealing.Victim}, which answers from the scheduler's deques), and the steal policies RS
 * and CRS as pure objects ({@link org.divvy.stealing.StealStrategy}). A stolen job's result and aborts are
 * the business of {@code org.divvy.results}: stealing hands it over there on both sides.
 *
 * <p>Threads: everything here runs on the network agent thread (single writer); other threads only read
 * the counters and may stop stealing.
 */
package org.divvy.stealing;
