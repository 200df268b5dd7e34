package org.divvy.membership;

import java.util.function.IntConsumer;

import org.agrona.collections.Int2ObjectHashMap;
import org.divvy.DivvyException;

/**
 * Timeout-based failure detection: a watched id that has not been heard from for {@code timeoutNs} is
 * expired (reported once and forgotten). A pure policy object: time comes in as {@code nowNs} and all
 * comparisons are deadline differences, so it works with any clock, including a test's fake one.
 *
 * <p>Owned by the thread that drives it.
 */
final class FailureDetector {
    private static final class Watch {
        long lastHeardNs;
    }

    private final long timeoutNs;
    private final Int2ObjectHashMap<Watch> watches = new Int2ObjectHashMap<>();

    FailureDetector(final long timeoutNs) {
        if (timeoutNs <= 0) {
            throw new DivvyException("timeoutNs=" + timeoutNs + ", must be > 0");
        }
        this.timeoutNs = timeoutNs;
    }

    long timeoutNs() {
        return timeoutNs;
    }

    /** Starts watching {@code id} (or refreshes it) as heard at {@code nowNs}. */
    void onHeard(final int id, final long nowNs) {
        Watch watch = watches.get(id);
        if (watch == null) {
            watch = new Watch();
            watches.put(id, watch);
        }
        watch.lastHeardNs = nowNs;
    }

    /** Whether {@code id} is watched (and not expired yet). */
    boolean isWatched(final int id) {
        return watches.containsKey(id);
    }

    /** Stops watching {@code id} (it left). */
    void remove(final int id) {
        watches.remove(id);
    }

    /** Reports and forgets every id silent for longer than the timeout at {@code nowNs}; returns how many. */
    int pollExpired(final long nowNs, final IntConsumer onExpired) {
        int expired = 0;
        final Int2ObjectHashMap<Watch>.EntryIterator it = watches.entrySet().iterator();
        while (it.hasNext()) {
            it.next();
            if (nowNs - (it.getValue().lastHeardNs + timeoutNs) > 0) {
                final int id = it.getIntKey();
                it.remove();
                onExpired.accept(id);
                expired++;
            }
        }
        return expired;
    }
}
