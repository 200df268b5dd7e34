package org.divvy.perf.lanwan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Smoke test of the whole harness in its tiny {@code --quick} form: rows present, answers right. Nothing about speed. */
class LanWanQuickTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 50, unit = TimeUnit.SECONDS)
    void quickRunWritesEverySectionWithCorrectAnswers() throws IOException {
        final Path csv = dir.resolve("lanwan.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = LanWanMain.run(new String[] {"--quick", "--rtt-samples", "300", "--base-port", "23100", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, () -> out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));

        final List<String> lines = Files.readAllLines(csv);
        assertEquals(LanWanCsv.HEADER, lines.get(0));
        final List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).collect(Collectors.toList());

        // steal RTT: both kinds measured with every requested sample
        assertEquals(300.0, value(rows, "steal-rtt", "steal-reply-none", "samples"));
        assertEquals(300.0, value(rows, "steal-rtt", "raw-aeron-ping-pong", "samples"));
        assertTrue(value(rows, "steal-rtt", "steal-reply-none", "p50") > 0);

        // efficiency: 2 sites x 2 nodes, the 0 ms control and 5 ms, RS and CRS, right answers, SIMULATED label,
        // consistent counts, and the lost node-time split into parts that add up with the efficiency
        for (final String policy : List.of("RS", "CRS")) {
            for (final String delay : List.of("0", "5")) {
                final String caseName = policy + "-2x2-delay" + delay + "ms-leaf1000us";
                final String run = caseName + "-run1";
                assertEquals(1.0, value(rows, "efficiency", caseName, "answer_correct"), caseName);
                assertEquals(1.0, value(rows, "efficiency", run, "answer_correct"), run);
                assertTrue(value(rows, "efficiency", run, "elapsed") > 0, run + ": its elapsed time was recorded (a value present, not a speed)");
                assertTrue(value(rows, "efficiency", run, "relayed_datagrams") > 0, run + ": inter-site traffic goes via the relay");
                final double site = value(rows, "efficiency", run, "site_steal_requests");
                final double wide = value(rows, "efficiency", run, "wide_steal_requests");
                if (site + wide > 0) {
                    assertEquals(wide / (site + wide), value(rows, "efficiency", run, "wide_request_fraction"), 1e-3, run);
                }
                final double parts = value(rows, "efficiency", run, "efficiency") + value(rows, "efficiency", run, "loss_overshoot") +
                    value(rows, "efficiency", run, "loss_ramp") + value(rows, "efficiency", run, "loss_tail") +
                    value(rows, "efficiency", run, "loss_gaps");
                assertEquals(1.0, parts, 1e-3, run);
                assertTrue(value(rows, "efficiency", run, "loss_overshoot") >= 0, run + ": a leaf parks at least its time");
                assertTrue(value(rows, "efficiency", run, "loss_ramp") > 0, run + ": the first leaf starts after the run does");
                assertTrue(value(rows, "efficiency", run, "loss_tail") > 0, run + ": the run ends after its last leaf");
                assertEquals(value(rows, "efficiency", run, "efficiency"), value(rows, "efficiency", caseName, "efficiency_median"), 1e-4);
            }
            final double control = value(rows, "efficiency", policy + "-2x2-delay0ms-leaf1000us", "efficiency_median");
            final String delayed = policy + "-2x2-delay5ms-leaf1000us";
            assertEquals(value(rows, "efficiency", delayed, "efficiency_median") / control,
                value(rows, "efficiency", delayed, "relative_to_control_median"), 1e-3, delayed);
        }
        assertTrue(rows.stream().filter(r -> r[0].equals("efficiency")).allMatch(r -> r[5].startsWith("SIMULATED")));
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("ROW CRS efficiency, 2 sites x 2 nodes, SIMULATED, 5 ms one-way"), printed);
        assertTrue(printed.contains("| java -jar perf/target/divvy-perf.jar lanwan --quick"), printed);

        // speedup: every quick app has its three rows (answers are checked by the harness, which fails otherwise)
        for (final String app : List.of("fib", "nqueens", "mergesort", "raytracer")) {
            assertTrue(value(rows, "speedup", app, "speedup") > 0, app);
        }
        for (final String section : List.of("steal-rtt", "efficiency", "speedup")) {
            assertTrue(Files.size(dir.resolve("lanwan-" + section + ".png")) > 0, section);
        }
    }

    @Test
    void theControlDelayAlwaysRunsFirst() {
        assertArrayEquals(new long[] {0, 10, 50}, LanWanMain.withControl(new long[] {10, 50}));
        assertArrayEquals(new long[] {0, 10}, LanWanMain.withControl(new long[] {10, 0}));
    }

    @Test
    void aMisspelledPolicyIsAUsageError() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = LanWanMain.run(new String[] {"--efficiency", "--policies", "RS,CSR"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("`CSR` is not one of"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void parkedLeavesFollowFibonacci() {
        assertEquals(0, EfficiencyBenchmark.parkedLeaves(1));
        assertEquals(1, EfficiencyBenchmark.parkedLeaves(2));
        assertEquals(1, EfficiencyBenchmark.parkedLeaves(3));
        assertEquals(2, EfficiencyBenchmark.parkedLeaves(4));
        assertEquals(46_368, EfficiencyBenchmark.parkedLeaves(25)); // fib(24)
    }

    private static double value(final List<String[]> rows, final String section, final String caseName, final String metric) {
        return rows.stream().filter(r -> r[0].equals(section) && r[1].equals(caseName) && r[2].equals(metric))
            .mapToDouble(r -> Double.parseDouble(r[3])).findFirst()
            .orElseThrow(() -> new AssertionError("no row " + section + "," + caseName + "," + metric));
    }
}
