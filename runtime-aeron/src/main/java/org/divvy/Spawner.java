package org.divvy;

import org.divvy.scheduling.CurrentFrame;

/**
 * The base of every generated spawner interface ({@code FibSpawner} for a class {@code Fib}): gives
 * the class {@link #sync()}, {@link #skipSpawn()}, {@link #abort()} and {@link #pollSharedObjects()}.
 */
public interface Spawner {
    /**
     * Waits until every job spawned by the current invocation has finished, running other work
     * (local first, then stolen) meanwhile. Rethrows the first failure (lowest child index) of a child
     * that has no failure callback, with the others suppressed; remaining children are aborted then.
     * Inlets registered on the children's handles run here, on this thread.
     */
    default void sync() {
        CurrentFrame.sync();
    }

    /**
     * Counts a spawn the current invocation chose not to make, in its place, so the children spawned after it keep
     * their identities. A job's identity, its stamp, is its parent's followed by its child index (the number of
     * spawns before it: thesis §2.4); after a crash the survivors' finished results are found by stamp and reused
     * for the re-spawned jobs (§3.3), so a job must spawn its children in the same order every time it runs. A job
     * whose choice to spawn depends on something that differs from run to run, such as a branch and bound that
     * prunes with a shared bound, calls this for each child it leaves out: then each index names the same
     * subproblem however many of its siblings were pruned, and a reused result is always the right subtree's.
     * Costs two counter increments; waits for nothing.
     */
    default void skipSpawn() {
        CurrentFrame.skipSpawn();
    }

    /**
     * Cancels every outstanding child of the current invocation, wherever it runs: queued children
     * never start, running ones stop at their next spawn or sync. Their handles then throw
     * {@link JobAbortedException}. Returns at once; a following {@code sync()} waits for running
     * children to stop.
     */
    default void abort() {
        CurrentFrame.abort();
    }

    /**
     * A safe point for shared objects: applies the writes that arrived from other nodes to this node's
     * replicas now. Spawn, sync and the end of a job are safe points already; call this in long loops
     * that do neither (Satin++'s explicit poll). Does nothing on a node without shared objects.
     */
    default void pollSharedObjects() {
        CurrentFrame.pollSharedObjects();
    }
}
