/**
 * Results and aborts of jobs that crossed nodes. The owner side ({@link org.divvy.results.GivenJobs}, the
 * thesis' outstanding jobs, §3.2) keeps each job given to a remote thief until the thief's JOB_RESULT ends
 * it, forwards aborts of those jobs as ABORT, and fails them when their thief dies or leaves. The thief side
 * ({@link org.divvy.results.ForeignJobs}) runs stolen jobs for their owners, returns each outcome as
 * JOB_RESULT, and cancels them on the owner's ABORT, its death or the end of the computation.
 *
 * <p>Threads: the tables, flyweights and encoders belong to the network agent thread (single writer). Workers
 * reach them only through two queues, filled by the {@link org.divvy.scheduling.RemoteLink} calls they make
 * when a foreign job ends or a given job is aborted; the agent drains them in the tables' duties.
 */
package org.divvy.results;
