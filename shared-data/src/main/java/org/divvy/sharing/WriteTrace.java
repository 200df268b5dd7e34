package org.divvy.sharing;

import java.util.concurrent.atomic.AtomicLongArray;

/** TEMPORARY instrumentation (issue 9, 64 replicas): when each probe write was taken, arrived, per node. One JVM. */
public final class WriteTrace {
    public static final int NODES = 80;
    public static final int WRITES = 4096;
    /** When the writer's agent took write n from its outbox. */
    public static final AtomicLongArray TAKEN_NS = new AtomicLongArray(WRITES);
    /** When the writer's agent had offered/queued it to every peer. */
    public static final AtomicLongArray BROADCAST_DONE_NS = new AtomicLongArray(WRITES);
    /** [node * WRITES + n]: when node's agent received write n. */
    public static final AtomicLongArray ARRIVED_NS = new AtomicLongArray(NODES * WRITES);

    private WriteTrace() {
    }

    /** The write number of a probe publish(int) record at {@code at} (args 4 bytes), or -1. */
    static int probeWrite(final org.agrona.DirectBuffer b, final int at) {
        final int length = b.getInt(at + 12, org.divvy.protocol.HeaderFlyweight.BYTE_ORDER);
        if (length != 4) {
            return -1;
        }
        final int n = b.getInt(at + SharedUpdateFlyweight.WRITE_HEADER_LENGTH, java.nio.ByteOrder.LITTLE_ENDIAN);
        return n >= 0 && n < WRITES ? n : -1;
    }
}
