package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Network errors are logged once per cause, with a count, not a stack trace per occurrence. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ErrorLogTest {
    private final List<String> lines = new ArrayList<>();
    private final List<Throwable> traces = new ArrayList<>();
    private final ErrorLog log = new ErrorLog((line, first) -> {
        lines.add(line);
        traces.add(first);
    });

    @Test
    void shouldLogTheFirstErrorOfAKindWithItsTraceThenOnlyPowersOfTenOfItsCount() {
        final IllegalStateException first = new IllegalStateException("unresolved - endpoint=notahost:40000");
        log.onError(first);
        for (int i = 1; i < 1234; i++) {
            log.onError(new IllegalStateException("unresolved - endpoint=notahost:40000"));
        }
        assertEquals(List.of(
            "network error: java.lang.IllegalStateException: unresolved - endpoint=notahost:40000",
            "network error seen 10 times: java.lang.IllegalStateException: unresolved - endpoint=notahost:40000",
            "network error seen 100 times: java.lang.IllegalStateException: unresolved - endpoint=notahost:40000",
            "network error seen 1000 times: java.lang.IllegalStateException: unresolved - endpoint=notahost:40000"), lines);
        assertSame(first, traces.get(0));
        assertNull(traces.get(1));
        assertEquals(1234, log.count("java.lang.IllegalStateException: unresolved - endpoint=notahost:40000"));
    }

    @Test
    void shouldKeepKindsApartUpToABoundSoAFloodOfDistinctMessagesCannotGrowIt() {
        for (int i = 0; i < 10_000; i++) {
            log.onError(new IllegalArgumentException("frame " + letters(i)));
        }
        // one line per kind up to the bound, then the rest share one kind: first line, then its powers of ten
        assertEquals(ErrorLog.MAX_KINDS + 1 + 3, lines.size());
        assertEquals(10_000 - ErrorLog.MAX_KINDS, log.count("(other kinds)"));
    }

    @Test
    void shouldCountMessagesThatDifferOnlyInTheirNumbersAsOneCause() {
        // what Aeron's driver reports for SETUP frames with a sender's chosen term lengths, one value each
        for (int i = 0; i < 1_000; i++) {
            log.onError(new IllegalArgumentException("invalid term buffer length: " + (65_537 + 7 * i)));
        }
        assertEquals(List.of(
            "network error: java.lang.IllegalArgumentException: invalid term buffer length: 65537",
            "network error seen 10 times: java.lang.IllegalArgumentException: invalid term buffer length: 65537",
            "network error seen 100 times: java.lang.IllegalArgumentException: invalid term buffer length: 65537",
            "network error seen 1000 times: java.lang.IllegalArgumentException: invalid term buffer length: 65537"), lines);
        assertEquals(1_000, log.count("java.lang.IllegalArgumentException: invalid term buffer length: 1"));
    }

    @Test
    void shouldCountTheSameInstanceReportedAgainAsItsKind() {
        final IllegalStateException refused = new IllegalStateException("refused 0xD1");
        final IllegalStateException other = new IllegalStateException("other");
        for (int i = 0; i < 100; i++) {
            log.onError(refused);
            log.onError(other);
        }
        assertEquals(100, log.count("java.lang.IllegalStateException: refused 0xD1"));
        assertEquals(100, log.count("java.lang.IllegalStateException: other"));
        assertEquals(6, lines.size()); // each: first, 10, 100
    }

    private static String letters(final int n) {
        final StringBuilder sb = new StringBuilder();
        int rest = n;
        do {
            sb.append((char)('a' + rest % 26));
            rest /= 26;
        } while (rest > 0);
        return sb.toString();
    }
}
