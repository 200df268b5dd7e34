package org.divvy.perf.sharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The counters are read from the line SharingStatistics prints, and a changed line is an error, not zeros. */
class SharingCountersTest {
    @Test
    void shouldReadTheCountersOfTheSharedObjectLine() {
        final String line = "remote steals: site 2/12, wide-area 0/0; jobs given 0, run for peers 2\n"
            + "  shared objects: 1630 writes shipped in 24 broadcasts (combining ratio 67.9), 72 messages, 90152 bytes sent,"
            + " 0 too large to send; 2527 writes received, 2527 applied, 0 without replica, 0 updates dropped, 0 over the"
            + " inbox bound; guards: 0 failed\n";
        assertEquals(new SharingCounters(1630, 24, 72, 90152, 2527), SharingCounters.parse(line));
        assertEquals(new SharingCounters(0, 0, 0, 0, 0), SharingCounters.parse("remote steals: site 0/0\n"));
        assertThrows(IllegalStateException.class, () -> SharingCounters.parse("shared objects: 12 writes sent\n"));
    }
}
