package org.divvy.transport;

import java.util.concurrent.atomic.AtomicLongArray;

import org.agrona.DirectBuffer;
import org.divvy.protocol.HeaderFlyweight;

/** TEMPORARY instrumentation (issue 9): what happened to the probe's SO_UPDATE frames at each link. One JVM. */
public final class LinkTrace {
    public static final int WRITES = 4096;
    public static final AtomicLongArray SENT_AT_ONCE = new AtomicLongArray(WRITES);
    public static final AtomicLongArray QUEUED_NEW_PUBLICATION = new AtomicLongArray(WRITES);
    public static final AtomicLongArray QUEUED_NOT_CONNECTED = new AtomicLongArray(WRITES);
    public static final AtomicLongArray QUEUED_BACK_PRESSURED = new AtomicLongArray(WRITES);
    public static final AtomicLongArray QUEUED_BEHIND = new AtomicLongArray(WRITES);
    /** The latest time a queued copy of write n left a link's queue. */
    public static final AtomicLongArray LAST_DRAINED_NS = new AtomicLongArray(WRITES);

    private LinkTrace() {
    }

    /** The probe write number of an SO_UPDATE (type 26) frame holding one publish(int), or -1. */
    static int probeWrite(final DirectBuffer buffer, final int offset, final int length) {
        if ((buffer.getByte(offset + HeaderFlyweight.TYPE_OFFSET) & 0xFF) != 26
            || length != HeaderFlyweight.HEADER_LENGTH + 4 + 16 + 4) {
            return -1;
        }
        final int n = buffer.getInt(offset + HeaderFlyweight.HEADER_LENGTH + 4 + 16, HeaderFlyweight.BYTE_ORDER);
        return n >= 0 && n < WRITES ? n : -1;
    }
}
