package org.divvy.sharing;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.ErrorHandler;
import org.divvy.DivvyException;
import org.divvy.codegen.Job;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.SharedReplica;
import org.divvy.codegen.WireReader;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.scheduling.SharingHook;
import org.divvy.scheduling.Task;

/**
 * The workers' side of shared objects: writes and states that arrived from other nodes wait in a queue
 * (the agent fills it, copying each message once) and are applied at safe points, each under its
 * replica's write lock, by whichever worker reaches one first (one at a time, so a replica's writes are
 * applied in the order they came); and a job from another node is held back until its replicas are here
 * and its guard holds, or fresh replicas were fetched (thesis §5.3).
 *
 * <p>Guard evaluation itself is the spawnable's generated guard, a pure function of the job's parameters
 * and the replicas it reads (read locks only).
 */
final class SafePoints implements SharingHook {
    /** How often a worker waiting for a replica or a guard looks again. */
    private static final long WAIT_STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /** A message from another node: the body of an SO_UPDATE, or a fetched replica's state. */
    record Incoming(ReplicaCore stateOf, byte[] bytes) {
    }

    private final ConcurrentLinkedQueue<Incoming> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final ReentrantLock applying = new ReentrantLock();
    private final WireReader reader = new WireReader();
    private final WireReader arguments = new WireReader();
    private final org.agrona.concurrent.UnsafeBuffer buffer = new org.agrona.concurrent.UnsafeBuffer(0, 0);
    private final ReplicaTable replicas;
    private final SharingStatistics statistics;
    private final ErrorHandler errorHandler;
    private final long guardWaitNs;
    private final boolean guardFetch;
    private final long replicaWaitNs;

    SafePoints(final ReplicaTable replicas, final SharingStatistics statistics, final ErrorHandler errorHandler, final long guardWaitNs,
        final boolean guardFetch, final long replicaWaitNs) {
        this.replicas = replicas;
        this.statistics = statistics;
        this.errorHandler = errorHandler;
        this.guardWaitNs = guardWaitNs;
        this.guardFetch = guardFetch;
        this.replicaWaitNs = replicaWaitNs;
    }

    /** Agent: queues the writes of an SO_UPDATE (its bytes from the write count on) for the next safe point. */
    void addUpdate(final byte[] writes) {
        queue.add(new Incoming(null, writes));
        queued.incrementAndGet();
    }

    /** Agent: queues a fetched replica's state; applying it ends the replica's wait. */
    void addState(final ReplicaCore core, final byte[] state) {
        queue.add(new Incoming(core, state));
        queued.incrementAndGet();
    }

    boolean isEmpty() {
        return queued.get() == 0;
    }

    @Override
    public void safePoint() {
        if (queued.get() == 0 || !applying.tryLock()) {
            return;
        }
        try {
            Incoming incoming;
            while ((incoming = queue.poll()) != null) {
                queued.decrementAndGet();
                apply(incoming);
            }
        } finally {
            applying.unlock();
        }
    }

    private void apply(final Incoming incoming) {
        if (incoming.stateOf() != null) {
            try {
                incoming.stateOf().readState(reader.wrap(incoming.bytes()));
            } catch (final RuntimeException e) {
                statistics.applyFailures.increment();
                incoming.stateOf().awaitingState(false); // a broken state must not hold jobs forever
                errorHandler.onError(new DivvyException("the replica state of " + incoming.stateOf() + " could not be read: " + e, e));
            }
            return;
        }
        final byte[] bytes = incoming.bytes();
        buffer.wrap(bytes);
        final int count = buffer.getInt(0, HeaderFlyweight.BYTE_ORDER);
        int at = 4;
        for (int i = 0; i < count; i++) {
            final long id = buffer.getLong(at, HeaderFlyweight.BYTE_ORDER);
            final int methodId = buffer.getInt(at + 8, HeaderFlyweight.BYTE_ORDER);
            final int length = buffer.getInt(at + 12, HeaderFlyweight.BYTE_ORDER);
            final int argumentsAt = at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH;
            at = argumentsAt + length;
            final ReplicaCore core = replicas.get(id);
            if (core == null || core.isAwaitingState()) {
                statistics.writesWithoutReplica.increment(); // its state, when it comes, is newer than this write
                continue;
            }
            try {
                core.applyRemote(methodId, arguments.wrap(buffer, argumentsAt, length));
                statistics.writesApplied.increment();
            } catch (final RuntimeException e) {
                statistics.applyFailures.increment();
                errorHandler.onError(new DivvyException("write `" + core.type().writeName(methodId) + "` to " + core
                    + " from another node failed: " + e, e));
            }
        }
    }

    @Override
    public void beforeRemoteJob(final Task task) {
        if (!(task instanceof Job job)) {
            return;
        }
        final Object[] shared = job.sharedObjects();
        if (shared.length == 0) {
            return;
        }
        awaitReplicas(shared);
        safePoint();
        if (guardHolds(job)) {
            return;
        }
        statistics.guardFailures.increment();
        final long waitUntilNs = System.nanoTime() + guardWaitNs;
        while (System.nanoTime() - waitUntilNs < 0) {
            LockSupport.parkNanos(WAIT_STEP_NS);
            safePoint();
            if (guardHolds(job)) {
                statistics.guardsHeldAfterWait.increment();
                return;
            }
        }
        if (!guardFetch) {
            return;
        }
        statistics.guardFetches.increment();
        for (final Object o : shared) {
            if (o != null) {
                replicas.fetch(((SharedReplica)o).divvyReplica());
            }
        }
        awaitReplicas(shared);
        safePoint();
        if (!guardHolds(job)) {
            statistics.guardsFailingAfterFetch.increment(); // best effort: the job runs on the freshest replicas there are
        }
    }

    private boolean guardHolds(final Job job) {
        try {
            return job.guardHolds();
        } catch (final RuntimeException e) {
            return false; // a guard that throws is a guard that does not hold; the job itself will report the problem
        }
    }

    /** Waits (applying what arrives) until every replica the job uses has its state, or the wait's bound passed. */
    private void awaitReplicas(final Object[] shared) {
        final long deadlineNs = System.nanoTime() + replicaWaitNs;
        for (final Object o : shared) {
            if (o == null) {
                continue;
            }
            final ReplicaCore core = ((SharedReplica)o).divvyReplica();
            while (core.isAwaitingState()) {
                safePoint();
                if (!core.isAwaitingState()) {
                    break;
                }
                if (System.nanoTime() - deadlineNs > 0) {
                    errorHandler.onError(new DivvyException("no node sent the replica of " + core + " within " +
                        TimeUnit.NANOSECONDS.toMillis(replicaWaitNs) + " ms; the job runs on the replica as it is"));
                    break;
                }
                LockSupport.parkNanos(WAIT_STEP_NS);
            }
        }
    }
}
