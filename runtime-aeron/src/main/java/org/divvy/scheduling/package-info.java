/**
 * The scheduler of one node: invocations, spawn/sync/abort, worker threads and their work-stealing deques.
 *
 * <p>Mechanism. A {@link org.divvy.scheduling.Task} is both the invocation record of a spawned call
 * (thesis §1.2) and, while it runs, the frame of its own invocation: its spawn and completion counters,
 * its children list, its sync count. Its fields are package-private and change only through its own
 * methods. Spawn ({@link org.divvy.scheduling.CurrentFrame}) links the job into the current frame and
 * pushes it on the calling worker's {@link org.divvy.scheduling.WorkStealingDeque}, or, while that deque
 * already offers thieves enough older jobs, leaves it unpublished in the frame (lazy task creation); sync
 * runs inlets, runs unpublished children, pops local work, steals from other workers and finally parks
 * until the frame's children are done; abort
 * cancels queued children and asks running ones to stop. Stamps ({@link org.divvy.scheduling.Stamp}) are
 * the reproducible job ids of the thesis (§2.4), derived lazily.
 *
 * <p>Threads. Each {@link org.divvy.scheduling.Worker} owns its deque's top end, its statistics and the
 * frames of the jobs it runs (spawn count, sync count, children list, failures). Other threads touch a
 * frame only through atomics: thieves' completion count and completion stack, the cancel flag, the
 * status CAS. {@link org.divvy.scheduling.Scheduler#run} is called by application threads, which only
 * submit a root and wait. The overview in {@link org.divvy.scheduling.WorkStealingDeque} states the
 * invariants.
 *
 * <p>Borders. This package knows neither the wire nor generated code: {@code org.divvy.codegen} extends
 * {@code Task} (its {@code Job}) and calls {@link org.divvy.scheduling.CurrentFrame}; the network half
 * takes jobs through {@link org.divvy.scheduling.Scheduler} and acts on a job that crossed nodes only
 * through its {@link org.divvy.scheduling.RemoteLink}.
 */
package org.divvy.scheduling;
