package org.divvy.sharing;

import java.util.Arrays;
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
import org.divvy.agent.MessageHandler;
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
 * applied in the order they came; a write whose replica is being read waits, with what came after it for the same
 * replica, for a later safe point, while writes and states for other replicas go ahead); and a job from another node is held back until its replicas are here
 * and its guard holds, or fresh replicas were fetched (thesis §5.3).
 *
 * <p>Guard evaluation itself is the spawnable's generated guard, a pure function of the job's parameters
 * and the replicas it reads (read locks only).
 */
final class SafePoints implements SharingHook {
    /** How often a worker waiting for a replica or a guard looks again. */
    private static final long WAIT_STEP_NS = TimeUnit.MICROSECONDS.toNanos(100);

    /**
     * A message from another node: the body of an SO_UPDATE, or a fetched replica's state; {@code bytes} is all of it.
     * The rest is how far the safe points got with it (under {@link #applying}).
     */
    static final class Incoming {
        final ReplicaCore stateOf;
        final DirectBuffer bytes;
        /** The large frame {@code bytes} is a view of, with a reference given back once all of it is applied; or null. */
        final DirectBuffer frame;
        /** Every write before this one is applied (or skipped), and where it starts. */
        int firstWrite;
        int firstAt = 4;
        /** Writes after {@link #firstWrite} applied already while one before them waits for its replica; null until one is. */
        long[] appliedLater;

        Incoming(final ReplicaCore stateOf, final DirectBuffer bytes, final DirectBuffer frame) {
            this.stateOf = stateOf;
            this.bytes = bytes;
            this.frame = frame;
        }

        boolean isAppliedLater(final int write) {
            return appliedLater != null && (appliedLater[write >>> 6] & (1L << write)) != 0;
        }

        void markAppliedLater(final int write, final int count) {
            if (appliedLater == null) {
                appliedLater = new long[(count + 63) >>> 6]; // only when a replica is being read: off the common path
            }
            appliedLater[write >>> 6] |= 1L << write;
        }
    }

    private final ConcurrentLinkedQueue<Incoming> queue = new ConcurrentLinkedQueue<>();
    /** Messages queued or pending. */
    private final AtomicInteger queued = new AtomicInteger();
    /** Bytes of the queued messages: the agent adds (checking the bound), workers subtract as they apply. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueuedBytes;
    private final ReentrantLock applying = new ReentrantLock();
    /**
     * Under {@link #applying}: the messages taken from the queue and not all applied yet, in the order they came; the
     * first {@link #pendingCount}.
     */
    private Incoming[] pending = new Incoming[16];
    private int pendingCount;
    /**
     * Under {@link #applying}, for one pass: the replicas whose lock could not be had; what comes later for them waits
     * too, so a replica's writes and states apply in the order they came. The first {@link #blockedCount}.
     */
    private ReplicaCore[] blocked = new ReplicaCore[8];
    private int blockedCount;
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
        addUpdate(writes, null);
    }

    /** As {@link #addUpdate(DirectBuffer)}; {@code frame}: what {@code writes} is a view of, released once applied, or null. */
    void addUpdate(final DirectBuffer writes, final DirectBuffer frame) {
        queuedBytes.addAndGet(writes.capacity());
        queue.add(new Incoming(null, writes, frame));
        queued.incrementAndGet();
        wakeWorker.run();
    }

    /** Agent: queues a fetched replica's state (asked for, so never refused); applying it ends the replica's wait. */
    void addState(final ReplicaCore core, final DirectBuffer state) {
        addState(core, state, null);
    }

    /** As {@link #addState(ReplicaCore, DirectBuffer)}; {@code frame}: what {@code state} is a view of, released once applied, or null. */
    void addState(final ReplicaCore core, final DirectBuffer state, final DirectBuffer frame) {
        queuedBytes.addAndGet(state.capacity());
        queue.add(new Incoming(core, state, frame));
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
     * Applies what arrived, in order per replica, as far as it can: a write or state whose replica's lock cannot be had
     * at once (a read in progress, perhaps this very thread's: a read method that spawns, syncs or polls is at a safe
     * point while it holds its read) stays pending, with what came after it for the same replica, for the next safe
     * point; writes and states for other replicas go ahead. Waiting for the lock instead would deadlock that thread on
     * its own read; stopping everything behind it would stall every shared object of the node (and a fetched state a
     * job waits for) as long as one replica is read.
     */
    @Override
    public void safePoint() {
        if (queued.get() == 0 || !applying.tryLock()) {
            return;
        }
        try {
            do {
                for (Incoming arrived; (arrived = queue.poll()) != null; ) {
                    if (pendingCount == pending.length) {
                        pending = Arrays.copyOf(pending, pendingCount * 2);
                    }
                    pending[pendingCount++] = arrived;
                }
                applyPending();
            } while (!queue.isEmpty());
        } finally {
            applying.unlock();
        }
    }

    /**
     * The node closes (its agent stopped, so nothing more is queued): what arrived and was not applied is dropped, its
     * large frames given back. Under {@link #applying}, as a safe point, so it waits for a worker applying; any thread.
     */
    void releaseAll() {
        applying.lock();
        try {
            for (Incoming arrived; (arrived = queue.poll()) != null; ) {
                drop(arrived);
            }
            for (int i = 0; i < pendingCount; i++) {
                drop(pending[i]);
            }
            Arrays.fill(pending, 0, pendingCount, null);
            pendingCount = 0;
        } finally {
            applying.unlock();
        }
    }

    private void drop(final Incoming incoming) {
        queued.decrementAndGet();
        queuedBytes.addAndGet(-incoming.bytes.capacity());
        MessageHandler.releaseKept(incoming.frame);
    }

    /** One pass over the pending messages, oldest first; keeps those not all applied, in order. */
    private void applyPending() {
        int kept = 0;
        for (int i = 0; i < pendingCount; i++) {
            final Incoming incoming = pending[i];
            if (apply(incoming)) {
                queued.decrementAndGet();
                queuedBytes.addAndGet(-incoming.bytes.capacity());
                MessageHandler.releaseKept(incoming.frame);
            } else {
                pending[kept++] = incoming;
            }
        }
        Arrays.fill(pending, kept, pendingCount, null);
        pendingCount = kept;
        Arrays.fill(blocked, 0, blockedCount, null);
        blockedCount = 0;
    }

    private boolean isBlocked(final ReplicaCore core) {
        for (int i = 0; i < blockedCount; i++) {
            if (blocked[i] == core) {
                return true;
            }
        }
        return false;
    }

    private void block(final ReplicaCore core) {
        if (blockedCount == blocked.length) {
            blocked = Arrays.copyOf(blocked, blockedCount * 2);
        }
        blocked[blockedCount++] = core;
    }

    /**
     * Applies what it can of {@code incoming} (from {@link Incoming#firstWrite} on, passing over writes applied already):
     * all but what is for a blocked replica; true when all of it is applied.
     */
    private boolean apply(final Incoming incoming) {
        final ReplicaCore stateOf = incoming.stateOf;
        if (stateOf != null) {
            if (isBlocked(stateOf)) {
                return false; // after a write or state for the same replica still waiting
            }
            try {
                if (!stateOf.tryReadState(reader.wrap(incoming.bytes, 0, incoming.bytes.capacity()))) {
                    block(stateOf);
                    return false;
                }
                return true;
            } catch (final RuntimeException e) {
                statistics.applyFailures.increment();
                stateOf.awaitingState(false); // a broken state must not hold jobs forever
                errorHandler.onError(new DivvyException("the replica state of " + stateOf + " could not be read: " + e, e));
                return true;
            }
        }
        buffer.wrap(incoming.bytes, 0, incoming.bytes.capacity());
        final int count = buffer.getInt(0, HeaderFlyweight.BYTE_ORDER);
        boolean allBefore = true; // every write before this one is applied: firstWrite moves on
        int at = incoming.firstAt;
        for (int write = incoming.firstWrite; write < count; write++) {
            final int length = buffer.getInt(at + 12, HeaderFlyweight.BYTE_ORDER);
            final int argumentsAt = at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH;
            if (!incoming.isAppliedLater(write)) {
                if (!applyWrite(at, argumentsAt, length)) {
                    allBefore = false;
                } else if (!allBefore) {
                    incoming.markAppliedLater(write, count);
                }
            }
            at = argumentsAt + length;
            if (allBefore) {
                incoming.firstWrite = write + 1;
                incoming.firstAt = at;
            }
        }
        return allBefore;
    }

    /** Applies (or skips) the write at {@code at} of {@link #buffer}; false when its replica's lock held it back. */
    private boolean applyWrite(final int at, final int argumentsAt, final int length) {
        final long id = buffer.getLong(at, HeaderFlyweight.BYTE_ORDER);
        final int methodId = buffer.getInt(at + 8, HeaderFlyweight.BYTE_ORDER);
        final ReplicaCore core = replicas.get(id);
        if (core != null && isBlocked(core)) {
            return false; // after a write or state for the same replica still waiting
        }
        if (core == null || core.isAwaitingState()) {
            // skipped: best effort. The state on its way may lack this write (lost here) or, had it come first, hold it
            // already (applied twice); guards repair what a job cannot live with (README, "best effort" precisely)
            statistics.writesWithoutReplica.increment();
            return true;
        }
        try {
            if (!core.tryApplyRemote(methodId, arguments.wrap(buffer, argumentsAt, length))) {
                block(core);
                return false;
            }
            statistics.writesApplied.increment();
        } catch (final RuntimeException e) {
            statistics.applyFailures.increment();
            errorHandler.onError(new DivvyException("write `" + core.type().writeName(methodId) + "` to " + core
                + " from another node failed: " + e, e));
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
