package org.divvy.sharing;

import java.util.concurrent.atomic.LongAdder;

/**
 * A node's shared-object counters since it started; written by workers (writes, guards) and the agent
 * (messages, fetches), read by anyone. What the thesis's Table 5.5 reports (invocations, broadcast data)
 * and what guard consistency costs.
 */
public final class SharingStatistics {
    final LongAdder writes = new LongAdder();
    final LongAdder updateBroadcasts = new LongAdder();
    final LongAdder updateMessages = new LongAdder();
    final LongAdder updateBytes = new LongAdder();
    final LongAdder writesReceived = new LongAdder();
    final LongAdder writesApplied = new LongAdder();
    final LongAdder writesWithoutReplica = new LongAdder();
    final LongAdder updatesDropped = new LongAdder();
    final LongAdder guardFailures = new LongAdder();
    final LongAdder guardsHeldAfterWait = new LongAdder();
    final LongAdder guardFetches = new LongAdder();
    final LongAdder guardsFailingAfterFetch = new LongAdder();
    final LongAdder replicaFetches = new LongAdder();
    final LongAdder replicaFetchRetries = new LongAdder();
    final LongAdder replicasReceived = new LongAdder();
    final LongAdder replicaBytesReceived = new LongAdder();
    final LongAdder replicasServed = new LongAdder();
    final LongAdder applyFailures = new LongAdder();
    final LongAdder updatesOverBound = new LongAdder();
    final LongAdder requestsDropped = new LongAdder();
    final LongAdder writesTooLarge = new LongAdder();

    /** Writes made here and shipped (outermost calls of @Write methods on replicas other nodes know). */
    public long writes() {
        return writes.sum();
    }

    /** SO_UPDATE frames built here (each broadcast to every member). */
    public long updateBroadcasts() {
        return updateBroadcasts.sum();
    }

    /** SO_UPDATE messages sent: frames times the members that took them. */
    public long updateMessages() {
        return updateMessages.sum();
    }

    /** Bytes of SO_UPDATE messages sent, headers included, counted once per member that took them. */
    public long updateBytes() {
        return updateBytes.sum();
    }

    /** Writes per SO_UPDATE frame: what combining saved (1 without combining). */
    public double combiningRatio() {
        final long frames = updateBroadcasts();
        return frames == 0 ? 0 : (double)writes() / frames;
    }

    public long writesReceived() {
        return writesReceived.sum();
    }

    public long writesApplied() {
        return writesApplied.sum();
    }

    /** Writes received for objects this node has no replica of (skipped). */
    public long writesWithoutReplica() {
        return writesWithoutReplica.sum();
    }

    /** SO_UPDATE messages dropped on purpose (a test's lost update). */
    public long updatesDropped() {
        return updatesDropped.sum();
    }

    /** Jobs from other nodes whose guard failed when first checked. */
    public long guardFailures() {
        return guardFailures.sum();
    }

    /** Of those, guards that held after waiting for late updates. */
    public long guardsHeldAfterWait() {
        return guardsHeldAfterWait.sum();
    }

    /** Guards still failing after the wait, so fresh replicas were fetched from the job's source. */
    public long guardFetches() {
        return guardFetches.sum();
    }

    /** Guards that still failed on the fetched replicas (the job ran anyway). */
    public long guardsFailingAfterFetch() {
        return guardsFailingAfterFetch.sum();
    }

    /** SO_REPLICA_REQUESTs sent: first use of an object here, and guard failures. */
    public long replicaFetches() {
        return replicaFetches.sum();
    }

    /** Fetches sent again to another holder (the first did not answer in time, died, or held none). */
    public long replicaFetchRetries() {
        return replicaFetchRetries.sum();
    }

    public long replicasReceived() {
        return replicasReceived.sum();
    }

    public long replicaBytesReceived() {
        return replicaBytesReceived.sum();
    }

    /** Replicas this node sent to others. */
    public long replicasServed() {
        return replicasServed.sum();
    }

    /** Writes or states from other nodes that threw when applied (counted, logged once per cause). */
    public long applyFailures() {
        return applyFailures.sum();
    }

    /** SO_UPDATE messages dropped on arrival because the writes waiting for a safe point reached {@code maxSharedInboxBytes}. */
    public long updatesOverBound() {
        return updatesOverBound.sum();
    }

    /** Replica requests dropped because too many waited for an answer already (the requester asks another node). */
    public long requestsDropped() {
        return requestsDropped.sum();
    }

    /** Writes made here that were not sent: their SO_UPDATE would have been larger than {@code maxMessageBytes}. */
    public long writesTooLarge() {
        return writesTooLarge.sum();
    }

    @Override
    public String toString() {
        return String.format("shared objects: %d writes shipped in %d broadcasts (combining ratio %.1f), %d messages, %d bytes sent,"
                + " %d too large to send; %d writes received, %d applied, %d without replica, %d updates dropped, %d over the inbox bound;"
                + " guards: %d failed, %d held after the wait, %d fetched fresh replicas, %d still failing;"
                + " replicas: %d fetches (%d retried), %d received (%d bytes), %d served, %d requests dropped%n",
            writes(), updateBroadcasts(), combiningRatio(), updateMessages(), updateBytes(), writesTooLarge(), writesReceived(), writesApplied(),
            writesWithoutReplica(), updatesDropped(), updatesOverBound(), guardFailures(), guardsHeldAfterWait(), guardFetches(), guardsFailingAfterFetch(),
            replicaFetches(), replicaFetchRetries(), replicasReceived(), replicaBytesReceived(), replicasServed(), requestsDropped());
    }
}
