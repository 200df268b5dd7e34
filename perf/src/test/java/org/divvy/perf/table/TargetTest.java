package org.divvy.perf.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Targets in both directions, the row's verdict, and the CSV fields the table reads back. */
class TargetTest {
    @Test
    void shouldMeetAnUpperBoundAtOrBelowIt() {
        assertTrue(Target.atMost(1.0).isMetBy(1.0));
        assertFalse(Target.atMost(1.0).isMetBy(1.01));
        assertEquals(0.5, Target.atMost(1.0).progress(2.0), 1e-12, "twice the bound is half-way");
        assertEquals("<= 192", Target.atMost(192).text());
        assertEquals("<= 1.0", Target.atMost(1.0).text());
    }

    @Test
    void shouldMeetALowerBoundAtOrAboveIt() {
        assertTrue(Target.atLeast(0.95).isMetBy(0.95));
        assertFalse(Target.atLeast(0.95).isMetBy(0.949));
        assertEquals(2.0, Target.atLeast(25).progress(50), 1e-12);
        assertEquals(">= 0.95", Target.atLeast(0.95).text());
        assertEquals(">= 1.9", Target.atLeast(1.9).text());
    }

    @Test
    void shouldGiveNoVerdictWithoutATarget() {
        final TableRow row = new TableRow("wan-control", "control", 0.98, 0.97, 0.99, "", Target.NONE, "", "cmd");
        assertEquals("-", row.verdict());
        assertEquals("0.980 (0.970-0.990)", row.valueText());
        assertFalse(Target.NONE.isMetBy(1));
        assertTrue(Double.isNaN(Target.NONE.progress(1)));
    }

    @Test
    void shouldSplitQuotedCsvFields() {
        assertEquals(List.of("fib35", "fib(35), every call", "a \"b\"", ""), CsvFile.fields("fib35,\"fib(35), every call\",\"a \"\"b\"\"\","));
    }
}
