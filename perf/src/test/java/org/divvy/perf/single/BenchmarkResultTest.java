package org.divvy.perf.single;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class BenchmarkResultTest {
    @Test
    void shouldTakeTheMiddleSampleOrTheMeanOfTheTwoMiddleOnes() {
        assertEquals(3.0, BenchmarkResult.median(new long[] {9, 1, 3}));
        assertEquals(2.5, BenchmarkResult.median(new long[] {4, 1, 3, 2}));
        assertEquals(7.0, BenchmarkResult.median(new long[] {7}));
    }

    @Test
    void shouldComputeRatiosAndPerUnitTimesFromMedians() {
        final Map<Contender, long[]> samples = new EnumMap<>(Contender.class);
        samples.put(Contender.DIVVY, new long[] {100, 120, 110});
        samples.put(Contender.FORK_JOIN, new long[] {200, 220, 210});
        samples.put(Contender.SEQUENTIAL, new long[] {330, 300, 310});
        final BenchmarkResult result = new BenchmarkResult("b", "d", 10, "call", "42", samples);
        assertEquals(110.0 / 210.0, result.divvyOverForkJoin(), 1e-12);
        assertEquals(310.0 / 110.0, result.sequentialOverDivvy(), 1e-12);
        assertEquals(310.0 / 210.0, result.sequentialOverForkJoin(), 1e-12);
        assertEquals(11.0, result.medianNsPerUnit(Contender.DIVVY), 1e-12);
    }

    @Test
    void shouldReportNoPerUnitTimeWithoutAUnit() {
        final Map<Contender, long[]> samples = new EnumMap<>(Contender.class);
        samples.put(Contender.DIVVY, new long[] {1});
        final BenchmarkResult result = new BenchmarkResult("b", "d", 0, "", "x", samples);
        assertTrue(Double.isNaN(result.medianNsPerUnit(Contender.DIVVY)));
        assertThrows(IllegalArgumentException.class, () -> result.medianNs(Contender.SEQUENTIAL));
    }
}
