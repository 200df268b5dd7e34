package org.divvy.perf.wan;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What happened to the datagrams of one direction of a link. Written by the relay thread only, read by
 * anyone; each count is exact once the relay is closed.
 */
public final class WanLinkCounters {
    final AtomicLong received = new AtomicLong();
    final AtomicLong lost = new AtomicLong();
    final AtomicLong queueFull = new AtomicLong();
    final AtomicLong noRoute = new AtomicLong();
    final AtomicLong sendFailed = new AtomicLong();
    final AtomicLong receiveFailed = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong deliveredBytes = new AtomicLong();

    WanLinkCounters() {
    }

    /** Datagrams that arrived at the relay on this direction. */
    public long received() {
        return received.get();
    }

    /** Datagrams dropped by the random loss draw. */
    public long lost() {
        return lost.get();
    }

    /** Datagrams dropped because the bandwidth shaper's queue was full (tail drop). */
    public long queueFull() {
        return queueFull.get();
    }

    /** Reverse-direction datagrams dropped because no client had sent on the link yet (nowhere to reply to). */
    public long noRoute() {
        return noRoute.get();
    }

    /** Datagrams the kernel refused to send (socket buffer full or an I/O error): lost, as UDP would. */
    public long sendFailed() {
        return sendFailed.get();
    }

    /** Receives that failed with an I/O error (for example an ICMP error reported on the socket). */
    public long receiveFailed() {
        return receiveFailed.get();
    }

    /** Datagrams sent on to their destination. */
    public long delivered() {
        return delivered.get();
    }

    /** Payload bytes sent on to their destination. */
    public long deliveredBytes() {
        return deliveredBytes.get();
    }

    @Override
    public String toString() {
        return "received=" + received() + " delivered=" + delivered() + " lost=" + lost() + " queueFull=" + queueFull() +
            " noRoute=" + noRoute() + " sendFailed=" + sendFailed() + " receiveFailed=" + receiveFailed() + " deliveredBytes=" + deliveredBytes();
    }
}
