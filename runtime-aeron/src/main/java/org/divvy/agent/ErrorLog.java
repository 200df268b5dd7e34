package org.divvy.agent;

import java.util.HashMap;
import java.util.Map;

import org.agrona.ErrorHandler;

/**
 * Logs a node's network errors once per cause: the first error of a kind with its stack trace, then only a
 * line each time its count reaches 10, 100, 1000, ... A cause that repeats per datagram or per retry (an
 * unresolvable peer, a flood of rejected frames) costs a counter, not a stack trace each time.
 *
 * <p>A kind is the class and the message with every run of digits read as one placeholder: Aeron's messages
 * carry the values that caused them ({@code invalid term buffer length: 595827875}), and a sender of garbage
 * chooses those values, so a kind per value would be a stack trace per datagram again. The lines show the
 * first error's own message. An error reported again as the same instance (a preallocated exception, as
 * the transport's receive guard reports each refused frame) is counted without allocating.
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
    /** Instances remembered with their kind, most recent first out; see the class comment. */
    private static final int RECENT_INSTANCES = 16;

    private final Sink sink;
    private final Map<String, Kind> kinds = new HashMap<>();
    private final Throwable[] recentInstances = new Throwable[RECENT_INSTANCES];
    private final Kind[] recentKinds = new Kind[RECENT_INSTANCES];
    private int nextRecent;

    /** One kind's count, and the text its lines show (the first error's own class and message). */
    private static final class Kind {
        final String text;
        long count;

        Kind(final String text) {
            this.text = text;
        }
    }

    public ErrorLog(final Sink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void onError(final Throwable t) {
        Kind kind = recentKind(t);
        if (kind == null) {
            kind = kindOf(t);
            recentInstances[nextRecent] = t;
            recentKinds[nextRecent] = kind;
            nextRecent = (nextRecent + 1) % RECENT_INSTANCES;
        }
        final long count = ++kind.count;
        if (count == 1) {
            sink.log("network error: " + kind.text, OTHER_KINDS.equals(kind.text) ? null : t);
        } else if (isPowerOfTen(count)) {
            sink.log("network error seen " + count + " times: " + kind.text, null);
        }
    }

    private Kind recentKind(final Throwable t) {
        for (int i = 0; i < RECENT_INSTANCES; i++) {
            if (recentInstances[i] == t) {
                return recentKinds[i];
            }
        }
        return null;
    }

    private Kind kindOf(final Throwable t) {
        final String text = t.getClass().getName() + ": " + t.getMessage();
        final String key = digitsAsOne(text);
        Kind kind = kinds.get(key);
        if (kind == null) {
            if (kinds.size() >= MAX_KINDS) {
                return kinds.computeIfAbsent(OTHER_KINDS, Kind::new);
            }
            kind = new Kind(text);
            kinds.put(key, kind);
        }
        return kind;
    }

    /** How many times errors of this kind ({@code class: message}, digits as in any one of them) occurred. */
    public synchronized long count(final String kind) {
        final Kind k = kinds.get(OTHER_KINDS.equals(kind) ? kind : digitsAsOne(kind));
        return k == null ? 0 : k.count;
    }

    static String digitsAsOne(final String text) {
        final StringBuilder sb = new StringBuilder(text.length());
        boolean inDigits = false;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                if (!inDigits) {
                    sb.append('#');
                }
                inDigits = true;
            } else {
                sb.append(c);
                inDigits = false;
            }
        }
        return sb.toString();
    }

    private static boolean isPowerOfTen(final long n) {
        long p = 10;
        while (p < n) {
            p *= 10;
        }
        return p == n;
    }
}
