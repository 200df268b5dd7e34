package org.divvy.perf.single;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class SingleNodeOptionsTest {
    @Test
    void shouldRejectInvalidValuesNamingValueAndBound() {
        assertMessage("rounds=0, must be >= 1", SingleNodeOptions.builder().rounds(0));
        assertMessage("warmup=-1, must be >= 0", SingleNodeOptions.builder().warmup(-1));
        assertMessage("workers=0, must be >= 1", SingleNodeOptions.builder().workers(0));
        assertMessage("settleMs=-3, must be >= 0", SingleNodeOptions.builder().settleMs(-3));
    }

    @Test
    void shouldPutSamplesAndChartBesideTheCsv() {
        final SingleNodeOptions options = SingleNodeOptions.builder().out(Path.of("x", "run.csv")).build();
        assertEquals(Path.of("x", "run-samples.csv"), options.samplesOut());
        assertEquals(Path.of("x", "run.png"), options.chartOut());
    }

    @Test
    void shouldQuoteCsvFieldsThatNeedIt() {
        assertEquals("plain", ResultCsv.quote("plain"));
        assertEquals("\"a, b\"", ResultCsv.quote("a, b"));
        assertEquals("\"say \"\"hi\"\"\"", ResultCsv.quote("say \"hi\""));
    }

    private static void assertMessage(final String expected, final SingleNodeOptions.Builder builder) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, builder::build).getMessage());
    }
}
