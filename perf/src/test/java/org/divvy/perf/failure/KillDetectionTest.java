package org.divvy.perf.failure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * KillDetection still recognises what {@code divvy run} prints: once the launcher's line for a dead child gained
 * its node id, the tool reported -1 ("never named") for every repetition, and nothing noticed. One repetition
 * of real processes; checks that the kill was named and the run passed, not how fast.
 */
class KillDetectionTest {
    private static final Pattern ROW = Pattern.compile("(?m)^\\s+1\\s+(-?\\d+)\\s+(-?\\d+)\\s+(yes|no)$");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldNameAKilledChildAndSeeTheRunPass() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        KillDetection.run(false, 1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final String printed = bytes.toString(StandardCharsets.UTF_8);
        final Matcher row = ROW.matcher(printed);
        assertTrue(row.find(), printed);
        assertTrue(Long.parseLong(row.group(1)) >= 0, "the kill was named:\n" + printed);
        assertTrue(row.group(3).equals("yes"), "the run went on and passed:\n" + printed);
    }
}
