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
            log.onError(new IllegalArgumentException("frame " + i));
        }
        // one line per kind up to the bound, then the rest share one kind: first line, then its powers of ten
        assertEquals(ErrorLog.MAX_KINDS + 1 + 3, lines.size());
        assertEquals(10_000 - ErrorLog.MAX_KINDS, log.count("(other kinds)"));
    }
}
