package org.divvy.scheduling;

import java.util.function.Consumer;

/**
 * The state few jobs need, kept out of {@link Task} because every field of a job widens the one
 * allocation of every spawn: a failure inlet, a remote stamp, the links of the completion stack, the
 * count of children finished by other threads, the thread parked in the frame's sync. Installed on
 * first need by CAS ({@link Task#extras()}), as the parent's thread, the job's runner and finishing
 * children may each be the first to need it.
 */
final class JobExtras {
    /**
     * As a frame: the value of {@link Task#spawned} at the invocation's last {@code abort()}; the children spawned
     * before it were discarded on purpose, so ending without syncing them is no mistake. Owner only.
     */
    int abortedSpawns;

    /** The failure inlet; written by the parent's thread before its sync. */
    Consumer<? super Throwable> failureCallback;

    /** The stamp of a job decoded from the wire (its parent is remote); written before publication. */
    Stamp remoteStamp;

    /** Link in the parent's completion stack, later in the list of failures one sync found. */
    Task nextCompletion;

    /**
     * As a frame: children finished by other threads (stolen ones, or claimed by remote thieves); incremented atomically.
     * Here, not in the job, because only a frame whose children left its thread counts any, and the job is the spawn
     * path's one allocation: a leaf job never needs the field.
     */
    volatile int completed;

    /** As a frame: lock-free stack of finished children that need parent-side work (inlet, failure). */
    volatile Task completionHead;

    /** As a frame: the thread parked in this invocation's sync, unparked when a child finishes or on abort. */
    volatile Thread waiter;

    /**
     * The network's handle on a job that crossed nodes: on the owner, a job out on a remote thief; on
     * the thief, a job whose owner is remote. Written before the job is claimed or submitted.
     */
    volatile RemoteLink remoteLink;
}
