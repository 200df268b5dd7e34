package org.divvy.sharing;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.UnsafeBuffer;
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
 * (the agent fills it: a copy of a small message, a view of a large one the transport handed over; its bytes
 * bounded by {@code maxSharedInboxBytes}) and are applied at safe points, each under its
 * replica's write lock, by whichever worker reaches one first (one at a time, so a replica's writes are
 * applied in the order they came; a write whose replica is being read waits, with what came after it, for a later
 * safe point); and a job from another node is held back until its replicas are here
 * and its guard holds, or fresh replicas were fetched (thesis §5.3).
 *
 * <p>Guard evaluation itself is the spawnable's generated guard, a pure function of the job's parameters
 * and the replicas it reads (read locks only).
 */
final class SafePoints implements SharingHook {
    /** How often a worker waiting for a replica or a guard looks again. */
    private static final long WAIT_STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /** A message from another node: the body of an SO_UPDATE, or a fetched replica's state; {@code bytes} is all of it. */
    record Incoming(ReplicaCore stateOf, DirectBuffer bytes) {
    }

    private final ConcurrentLinkedQueue<Incoming> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    /** Bytes of the queued messages: the agent adds (checking the bound), workers subtract as they apply. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueuedBytes;
    private final ReentrantLock applying = new ReentrantLock();
    /** Under {@link #applying}: the message being applied, taken from the queue but not all applied yet, or null. */
    private Incoming current;
    /** Under {@link #applying}: the index of {@link #current}'s next write, and where it starts. */
    private int currentWrite;
    private int currentAt;
    private final WireReader reader = new WireReader();
    private final WireReader arguments = new WireReader();
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    private final ReplicaTable replicas;
    private final SharingStatistics statistics;
    private final ErrorHandler errorHandler;
    private final long guardWaitNs;
    private final boolean guardFetch;
    private final long replicaWaitNs;
    /** Unparks an idle worker: a write that arrived is applied now, not when the worker's park ends (up to idleDeepParkNs). */
    private final Runnable wakeWorker;

    SafePoints(final ReplicaTable replicas, final SharingStatistics statistics, final ErrorHandler errorHandler, final long guardWaitNs,
        final boolean guardFetch, final long replicaWaitNs, final long maxQueuedBytes, final Runnable wakeWorker) {
        this.maxQueuedBytes = maxQueuedBytes;
        this.wakeWorker = wakeWorker;
        this.replicas = replicas;
        this.statistics = statistics;
        this.errorHandler = errorHandler;
        this.guardWaitNs = guardWaitNs;
        this.guardFetch = guardFetch;
        this.replicaWaitNs = replicaWaitNs;
    }

    /**
     * Agent: whether writes of {@code length} bytes fit under the bound now (only the agent adds, so they still fit
     * when it adds them next). Checked before copying anything.
     */
    boolean hasRoomFor(final int length) {
        return queuedBytes.get() + length <= maxQueuedBytes;
    }

    /** Agent: queues the writes of an SO_UPDATE (its bytes from the write count on) for the next safe point. */
    void addUpdate(final DirectBuffer writes) {
        queuedBytes.addAndGet(writes.capacity());
        queue.add(new Incoming(null, writes));
        queued.incrementAndGet();
        wakeWorker.run();
    }

    /** Agent: queues a fetched replica's state (asked for, so never refused); applying it ends the replica's wait. */
    void addState(final ReplicaCore core, final DirectBuffer state) {
        queuedBytes.addAndGet(state.capacity());
        queue.add(new Incoming(core, state));
        queued.incrementAndGet();
        wakeWorker.run();
    }

    /** Bytes waiting for a safe point. */
    long queuedBytes() {
        return queuedBytes.get();
    }

    boolean isEmpty() {
        return queued.get() == 0;
    }

    /**
     * Applies what arrived, in order, as far as it can: a write or state whose replica's lock cannot be had at once (a
     * read in progress, perhaps this very thread's: a read method that spawns, syncs or polls is at a safe point while
     * it holds its read) stays at the head of the queue, with what came after it, for the next safe point. Waiting for
     * the lock instead would deadlock that thread on its own read.
     */
    @Override
    public void safePoint() {
        if (queued.get() == 0 || !applying.tryLock()) {
            return;
        }
        try {
            while (true) {
                if (current == null) {
                    current = queue.poll();
                    if (current == null) {
                        return;
                    }
                    currentWrite = 0;
                    currentAt = 4;
                }
                if (!apply(current)) {
                    return; // held back: its replica is being read
                }
                queued.decrementAndGet();
                queuedBytes.addAndGet(-current.bytes().capacity());
                current = null;
            }
        } finally {
            applying.unlock();
        }
    }

    /** Applies {@code incoming} from {@link #currentWrite} on; false when a replica's lock stopped it there. */
    private boolean apply(final Incoming incoming) {
        if (incoming.stateOf() != null) {
            try {
                return incoming.stateOf().tryReadState(reader.wrap(incoming.bytes(), 0, incoming.bytes().capacity()));
            } catch (final RuntimeException e) {
                statistics.applyFailures.increment();
                incoming.stateOf().awaitingState(false); // a broken state must not hold jobs forever
                errorHandler.onError(new DivvyException("the replica state of " + incoming.stateOf() + " could not be read: " + e, e));
                return true;
            }
        }
        buffer.wrap(incoming.bytes(), 0, incoming.bytes().capacity());
        final int count = buffer.getInt(0, HeaderFlyweight.BYTE_ORDER);
        for (; currentWrite < count; currentWrite++) {
            final int at = currentAt;
            final long id = buffer.getLong(at, HeaderFlyweight.BYTE_ORDER);
            final int methodId = buffer.getInt(at + 8, HeaderFlyweight.BYTE_ORDER);
            final int length = buffer.getInt(at + 12, HeaderFlyweight.BYTE_ORDER);
            final int argumentsAt = at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH;
            final ReplicaCore core = replicas.get(id);
            if (core == null || core.isAwaitingState()) {
                // skipped: best effort. The state on its way may lack this write (lost here) or, had it come first, hold it
                // already (applied twice); guards repair what a job cannot live with (README, "best effort" precisely)
                statistics.writesWithoutReplica.increment();
            } else {
                try {
                    if (!core.tryApplyRemote(methodId, arguments.wrap(buffer, argumentsAt, length))) {
                        return false;
                    }
                    statistics.writesApplied.increment();
                } catch (final RuntimeException e) {
                    statistics.applyFailures.increment();
                    errorHandler.onError(new DivvyException("write `" + core.type().writeName(methodId) + "` to " + core
                        + " from another node failed: " + e, e));
                }
            }
            currentAt = argumentsAt + length;
        }
        return true;
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
        // each wait gives up as soon as the job's owner cancels it: the worker then cancels the job instead of running it
        if (!awaitReplicas(job, shared)) {
            return;
        }
        safePoint();
        if (guardHolds(job)) {
            return;
        }
        statistics.guardFailures.increment();
        final long waitUntilNs = System.nanoTime() + guardWaitNs;
        while (System.nanoTime() - waitUntilNs < 0) {
            if (job.isCancelRequested()) {
                return;
            }
            LockSupport.parkNanos(WAIT_STEP_NS);
            safePoint();
            if (guardHolds(job)) {
                statistics.guardsHeldAfterWait.increment();
                return;
            }
        }
        if (!guardFetch || job.isCancelRequested()) {
            return;
        }
        statistics.guardFetches.increment();
        for (final Object o : shared) {
            if (o != null) {
                replicas.fetch(((SharedReplica)o).divvyReplica());
            }
        }
        if (!awaitReplicas(job, shared)) {
            return;
        }
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

    /**
     * Waits (applying what arrives) until every replica the job uses has its state, or the wait's bound passed; false
     * when the job was cancelled meanwhile.
     */
    private boolean awaitReplicas(final Job job, final Object[] shared) {
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
                if (job.isCancelRequested()) {
                    return false;
                }
                if (System.nanoTime() - deadlineNs > 0) {
                    errorHandler.onError(new DivvyException("no node sent the replica of " + core + " within " +
                        TimeUnit.NANOSECONDS.toMillis(replicaWaitNs) + " ms; the job runs on the replica as it is"));
                    break;
                }
                LockSupport.parkNanos(WAIT_STEP_NS);
            }
        }
        return !job.isCancelRequested();
    }
}
