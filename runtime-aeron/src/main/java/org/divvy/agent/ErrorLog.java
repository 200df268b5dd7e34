package org.divvy.agent;

import java.util.HashMap;
import java.util.Map;

import org.agrona.ErrorHandler;

/**
 * Logs a node's network errors once per cause: the first error of a kind (its class and message) with its
 * stack trace, then only a line each time its count reaches 10, 100, 1000, ... A cause that repeats per
 * datagram or per retry (an unresolvable peer, a flood of rejected frames) costs a counter, not a stack
 * trace each time.
 *
 * <p>Called on the agent thread and, while the transport starts, on the node's owner thread: synchronized,
 * as errors are rare next to the work around them.
 */
public final class ErrorLog implements ErrorHandler {
    /** Where the lines go: a logger in a node, a list in a test. */
    @FunctionalInterface
    public interface Sink {
        /** @param first the error itself on its first occurrence (log its trace), else null. */
        void log(String line, Throwable first);
    }

    /** Causes kept apart at most; beyond it new kinds share one count, so a flood cannot grow the map. */
    static final int MAX_KINDS = 256;
    private static final String OTHER_KINDS = "(other kinds)";

    private final Sink sink;
    private final Map<String, long[]> countByKind = new HashMap<>();

    public ErrorLog(final Sink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void onError(final Throwable t) {
        String kind = t.getClass().getName() + ": " + t.getMessage();
        if (!countByKind.containsKey(kind) && countByKind.size() >= MAX_KINDS) {
            kind = OTHER_KINDS;
        }
        final long count = ++countByKind.computeIfAbsent(kind, k -> new long[1])[0];
        if (count == 1) {
            sink.log("network error: " + kind, OTHER_KINDS.equals(kind) ? null : t);
        } else if (isPowerOfTen(count)) {
            sink.log("network error seen " + count + " times: " + kind, null);
        }
    }

    /** How many times errors of this kind ({@code class: message}) occurred. */
    public synchronized long count(final String kind) {
        final long[] count = countByKind.get(kind);
        return count == null ? 0 : count[0];
    }

    private static boolean isPowerOfTen(final long n) {
        long p = 10;
        while (p < n) {
            p *= 10;
        }
        return p == n;
    }
}
