package org.divvy.codegen;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The runtime state of one shared-object replica: its id, its read-write lock and the node its writes
 * are shipped through. The generated replica subclass holds one and calls it around every method.
 *
 * <p>Atomicity. Several workers of a node use one replica, and writes from other nodes are applied to it
 * while jobs run, so every method of the replica subclass holds this lock: the read lock around local
 * methods, the write lock around {@code @Write} methods and around writes and state that arrive from
 * other nodes. A read therefore never sees half a write, and two writes never interleave. A write may call
 * reads and other writes (only the outermost call of a thread is shipped); a read must not call a write. The
 * lock is a {@link ReplicaLock}, biased to readers (see there why and what it costs).
 *
 * <p>Identity. The id is 64 random bits drawn when the object is made, not a node id and counter: a user
 * makes shared objects before any node exists (on the application thread, before {@code run}), and a
 * collision among the objects of one computation has a chance of about n²/2⁶⁵.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable): the constructor, {@link #readLock}/{@link #readUnlock},
 * {@link #writeLock}/{@link #writeUnlock}, {@link #beginShip}/{@link #endShip}. The rest is the runtime's.
 */
public final class ReplicaCore {
    private final ReplicaLock lock = new ReplicaLock();
    private final SharedObjectType<Object> type;
    private final Object replica;
    /** Set once, before the replica is published to other threads (a new replica takes the id it was sent under). */
    private long id;
    /** Calls of write methods in progress on the thread holding the write lock; only it reads or writes this. */
    private int writeDepth;
    /** True while a write from another node is applied: its nested write calls are not shipped again. */
    private boolean applyingRemote;
    /** The node this replica's writes are shipped through; null until it is sent to another node. */
    private volatile SharedWriteSink sink;
    /** True while this replica waits for its state from another node; jobs that use it wait. */
    private volatile boolean awaitingState;
    /** The node that last sent a job using this replica: it holds a replica consistent for that job. */
    private volatile int sourceNodeId = -1;

    @SuppressWarnings("unchecked")
    public <T> ReplicaCore(final SharedObjectType<T> type, final T replica) {
        this.type = (SharedObjectType<Object>)type;
        this.replica = replica;
        long random;
        do {
            random = ThreadLocalRandom.current().nextLong();
        } while (random == 0);
        this.id = random;
    }

    // ---- generated code ---------------------------------------------------------------------------

    /** Enters a read; pass the token to {@link #readUnlock}. */
    public int readLock() {
        return lock.readLock();
    }

    public void readUnlock(final int token) {
        lock.readUnlock(token);
    }

    public void writeLock() {
        lock.writeLock();
        writeDepth++;
    }

    public void writeUnlock() {
        writeDepth--;
        lock.writeUnlock();
    }

    /**
     * After a write method applied its change (the write lock held): the writer to encode its arguments
     * into when this call is to be shipped (the thread's outermost write, not one applied from another
     * node, and the replica is known to other nodes), else null.
     */
    public WireWriter beginShip(final int methodId) {
        final SharedWriteSink s = sink;
        if (s == null || writeDepth != 1 || applyingRemote) {
            return null;
        }
        return s.beginShip(this, methodId);
    }

    /** Ends what {@link #beginShip} began; {@code complete} false when encoding the arguments failed. */
    public void endShip(final WireWriter arguments, final boolean complete) {
        sink.endShip(this, arguments, complete);
    }

    // ---- runtime ------------------------------------------------------------------------------------

    public long id() {
        return id;
    }

    /** Gives a replica made on this node for one that came from another the id it came under; before publishing it. */
    public void assignId(final long sentId) {
        id = sentId;
    }

    public SharedObjectType<Object> type() {
        return type;
    }

    public Object replica() {
        return replica;
    }

    public SharedWriteSink sink() {
        return sink;
    }

    /** From now on writes on this replica are shipped through {@code node}. */
    public void attach(final SharedWriteSink node) {
        sink = node;
    }

    public boolean isAwaitingState() {
        return awaitingState;
    }

    public void awaitingState(final boolean awaiting) {
        awaitingState = awaiting;
    }

    public int sourceNodeId() {
        return sourceNodeId;
    }

    public void sourceNodeId(final int nodeId) {
        sourceNodeId = nodeId;
    }

    /** Applies a write shipped from another replica, under the write lock; it is not shipped again. */
    public void applyRemote(final int methodId, final WireReader arguments) {
        lock.writeLock();
        applyingRemote = true;
        writeDepth++;
        try {
            type.apply(replica, methodId, arguments);
        } finally {
            writeDepth--;
            applyingRemote = false;
            lock.writeUnlock();
        }
    }

    /** Replaces the state with the one in {@code state} (a fetched replica), under the write lock. */
    public void readState(final WireReader state) {
        lock.writeLock();
        try {
            type.readState(state, replica);
            awaitingState = false;
        } finally {
            lock.writeUnlock();
        }
    }

    /**
     * As {@link #applyRemote}, only if the write lock can be had at once ({@link ReplicaLock#tryWriteLock}): false,
     * applying nothing, while a read is in progress (perhaps on this thread) or another write is.
     */
    public boolean tryApplyRemote(final int methodId, final WireReader arguments) {
        if (!lock.tryWriteLock()) {
            return false;
        }
        applyingRemote = true;
        writeDepth++;
        try {
            type.apply(replica, methodId, arguments);
        } finally {
            writeDepth--;
            applyingRemote = false;
            lock.writeUnlock();
        }
        return true;
    }

    /** As {@link #readState}, only if the write lock can be had at once; false, reading nothing, otherwise. */
    public boolean tryReadState(final WireReader state) {
        if (!lock.tryWriteLock()) {
            return false;
        }
        try {
            type.readState(state, replica);
            awaitingState = false;
        } finally {
            lock.writeUnlock();
        }
        return true;
    }

    /** Writes the state, under the read lock; false, writing nothing, when a write holds the lock (try again later). */
    public boolean tryWriteState(final WireWriter writer) {
        if (!lock.tryReadLock()) {
            return false;
        }
        try {
            type.writeState(writer, replica);
            return true;
        } finally {
            lock.tryReadUnlock();
        }
    }

    @Override
    public String toString() {
        return type.name() + "#" + Long.toHexString(id);
    }
}
