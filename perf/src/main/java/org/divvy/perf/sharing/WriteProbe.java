package org.divvy.perf.sharing;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * The shared object of the write-latency measurement: write {@code n} records, on each replica it is applied to,
 * when it became visible there ({@code System.nanoTime()}, comparable across the nodes of one JVM); the writer's own
 * replica records when the write was made. A second write with the same number keeps the first time (best effort
 * may duplicate a write). {@link #stop()} tells the busy computation to end.
 */
@SharedObject
public class WriteProbe {
    /** Writes one probe records. */
    public static final int CAPACITY = 4096;

    /** Per replica, never sent: a fetched replica starts with none seen. */
    transient long[] seenNs = new long[CAPACITY];
    boolean stopped;

    public WriteProbe() {
    }

    @Write
    public void publish(final int n) {
        if (n >= 0 && n < seenNs.length && seenNs[n] == 0) {
            seenNs[n] = System.nanoTime();
        }
    }

    @Write
    public void stop() {
        stopped = true;
    }

    public boolean isStopped() {
        return stopped;
    }

    /** When write {@code n} became visible on this replica (nanoTime), or 0 when it did not (yet). */
    public long seenNs(final int n) {
        return seenNs[n];
    }
}
