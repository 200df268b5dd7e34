/**
 * Fault tolerance: crash recovery with orphan saving (thesis §3.3), without global synchronisation.
 * {@link org.divvy.recovery.Orphans} keeps this node's orphan table (which node holds the finished result of
 * which job, by stamp), holds the finished orphans of this node, announces them in combined broadcasts
 * (ORPHAN_TUPLES), answers RESULT_REQUESTs for them, and gives the table to nodes that join during a run.
 * The rest of recovery lives where its state is: {@code results.GivenJobs} re-queues jobs whose thief died
 * (restarted) and forwards the orphaning of a subtree to its thieves (ORPHAN_PROPAGATION);
 * {@code results.ForeignJobs} marks jobs whose owner died as orphans; the workers hand finished orphans
 * and restarted jobs to the {@link org.divvy.scheduling.RecoveryHook} this package implements.
 *
 * <p>State: the network agent thread owns everything but two concurrent maps (the orphan table and the
 * held results, read by workers looking up restarted jobs) and two inboxes workers fill.
 */
package org.divvy.recovery;
