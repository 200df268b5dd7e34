package org.divvy.perf.lanwan;

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

        // efficiency: 2 sites x 2 nodes, 5 ms, RS and CRS, right answers, SIMULATED label, consistent counts
        for (final String policy : List.of("RS", "CRS")) {
            final String caseName = policy + "-2x2-delay5ms-leaf1000us";
            assertEquals(1.0, value(rows, "efficiency", caseName, "answer_correct"), caseName);
            assertTrue(value(rows, "efficiency", caseName, "elapsed") > 0, caseName);
            assertTrue(value(rows, "efficiency", caseName, "relayed_datagrams") > 0, caseName + ": inter-site traffic goes via the relay");
            final double site = value(rows, "efficiency", caseName, "site_steal_requests");
            final double wide = value(rows, "efficiency", caseName, "wide_steal_requests");
            if (site + wide > 0) {
                assertEquals(wide / (site + wide), value(rows, "efficiency", caseName, "wide_request_fraction"), 1e-3, caseName);
            }
        }
        assertTrue(rows.stream().filter(r -> r[0].equals("efficiency")).allMatch(r -> r[5].startsWith("SIMULATED")));

        // speedup: every quick app has its three rows (answers are checked by the harness, which fails otherwise)
        for (final String app : List.of("fib", "nqueens", "mergesort", "raytracer")) {
            assertTrue(value(rows, "speedup", app, "speedup") > 0, app);
        }
        for (final String section : List.of("steal-rtt", "efficiency", "speedup")) {
            assertTrue(Files.size(dir.resolve("lanwan-" + section + ".png")) > 0, section);
        }
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
