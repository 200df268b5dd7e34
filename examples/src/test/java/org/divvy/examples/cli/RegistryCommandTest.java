package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RegistryCommandTest {
    @Test
    void shouldPrintItsAddressAndStopAfterTheDuration() {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final int exit = Launcher.execute(new String[] {"registry", "--duration-seconds", "1"},
            new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        final String out = outBytes.toString(StandardCharsets.UTF_8);
        assertEquals(Launcher.EXIT_OK, exit, out + errBytes.toString(StandardCharsets.UTF_8));
        assertTrue(out.matches("(?s)divvy registry listening at 127\\.0\\.0\\.1:\\d+\n.*"), out);
        assertTrue(out.contains("divvy registry stopped"), out);
    }
}
