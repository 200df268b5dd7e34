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
class SimulatedWorkTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @Test
    void shouldComputeTheRightFibWithParkedLeavesAndSaySo() {
        final int exit = Launcher.execute(new String[] {"fib", "-n", "22", "--threshold", "12", "--simulate-leaf-us",
            "200", "--workers", "2", "--progress-seconds", "0"}, out, err);
        final String output = outBytes.toString(StandardCharsets.UTF_8);
        assertEquals(Launcher.EXIT_OK, exit, errBytes.toString(StandardCharsets.UTF_8));
        assertTrue(output.contains("fib(22) = 17711") && output.contains("PASS"), output);
        assertTrue(output.contains(SimulationOptions.BANNER), output);
    }

    @Test
    void shouldCountTheTreeCutAtTheSpawnDepthWithParkedLeaves() {
        final int exit = Launcher.execute(new String[] {"uts", "--spawn-depth", "4", "--simulate-leaf-us", "100",
            "--workers", "2", "--progress-seconds", "0"}, out, err);
        final String output = outBytes.toString(StandardCharsets.UTF_8);
        assertEquals(Launcher.EXIT_OK, exit, errBytes.toString(StandardCharsets.UTF_8));
        assertTrue(output.contains("PASS: equals the tree cut at height 4") && output.contains("depth 4"), output);
        assertTrue(output.contains(SimulationOptions.BANNER), output);
    }

    @Test
    void shouldFindTheRealKnapsackOptimumWithParkedLeavesAndSaySo() {
        final int exit = Launcher.execute(new String[] {"knapsack", "--items", "20", "--spawn-depth", "8",
            "--simulate-leaf-us", "200", "--workers", "2", "--progress-seconds", "0"}, out, err);
        final String output = outBytes.toString(StandardCharsets.UTF_8);
        assertEquals(Launcher.EXIT_OK, exit, errBytes.toString(StandardCharsets.UTF_8));
        assertTrue(output.contains("PASS: equals dynamic programming"), output);
        assertTrue(output.contains(SimulationOptions.BANNER) && output.contains("200 us on average"), output);
    }
}
