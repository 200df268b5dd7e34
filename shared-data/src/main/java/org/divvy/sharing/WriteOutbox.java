package org.divvy.sharing;

import java.util.concurrent.locks.ReentrantLock;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.codegen.ReplicaCore;
import org.divvy.codegen.SharedWriteSink;
import org.divvy.codegen.WireWriter;
import org.divvy.protocol.HeaderFlyweight;

/**
 * The writes made on this node, waiting to be combined into one SO_UPDATE: workers append (a write's
 * arguments are encoded straight into this outbox's writer, under its lock, while the worker holds the
 * replica's write lock), the agent takes them all once the combining delay has passed since the first.
 * Records are laid out as SO_UPDATE carries them, so the agent copies them into the frame in one piece.
 * Nothing is allocated per write once the buffers have grown.
 */
final class WriteOutbox implements SharedWriteSink {
    private final ReentrantLock lock = new ReentrantLock();
    private final WireWriter arguments = new WireWriter(256);
    private final SharingStatistics statistics;
    private final Runnable wakeAgent;
    /** Guarded by lock. */
    private ExpandableArrayBuffer pending = new ExpandableArrayBuffer(1024);
    private int pendingLength;
    private int pendingCount;
    private long firstWriteNs;
    private int methodId;
    /** The agent's: what {@link #take} swapped out, valid until the next take. */
    private ExpandableArrayBuffer taken = new ExpandableArrayBuffer(1024);
    private int takenLength;

    WriteOutbox(final SharingStatistics statistics, final Runnable wakeAgent) {
        this.statistics = statistics;
        this.wakeAgent = wakeAgent;
    }

    @Override
    public WireWriter beginShip(final ReplicaCore core, final int id) {
        lock.lock();
        methodId = id;
        return arguments.reset();
    }

    @Override
    public void endShip(final ReplicaCore core, final WireWriter args, final boolean complete) {
        boolean first = false;
        try {
            if (complete) {
                final int length = args.length();
                final int at = pendingLength;
                pending.putLong(at, core.id(), HeaderFlyweight.BYTE_ORDER);
                pending.putInt(at + 8, methodId, HeaderFlyweight.BYTE_ORDER);
                pending.putInt(at + 12, length, HeaderFlyweight.BYTE_ORDER);
                pending.putBytes(at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH, args.buffer(), 0, length);
                pendingLength = at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH + length;
                if (pendingCount++ == 0) {
                    firstWriteNs = System.nanoTime();
                    first = true;
                }
                statistics.writes.increment();
            }
        } finally {
            lock.unlock();
        }
        if (first) {
            wakeAgent.run(); // an agent in deep idle parks long; the delay starts now
        }
    }

    /**
     * Agent: swaps out the pending writes when {@code delayNs} has passed since the first (at once for 0);
     * returns how many were taken (0: none, or not yet due). Read them from {@link #taken()}.
     */
    int take(final long nowNs, final long delayNs) {
        lock.lock();
        try {
            if (pendingCount == 0 || (delayNs > 0 && nowNs - firstWriteNs < delayNs)) {
                return 0;
            }
            final ExpandableArrayBuffer full = pending;
            pending = taken;
            taken = full;
            takenLength = pendingLength;
            final int count = pendingCount;
            pendingLength = 0;
            pendingCount = 0;
            return count;
        } finally {
            lock.unlock();
        }
    }

    MutableDirectBuffer taken() {
        return taken;
    }

    int takenLength() {
        return takenLength;
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return pendingCount == 0;
        } finally {
            lock.unlock();
        }
    }
}
