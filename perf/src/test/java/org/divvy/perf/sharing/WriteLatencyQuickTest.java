package org.divvy.perf.sharing;

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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@code write-latency --quick} (2 sites x 2 nodes behind a 5 ms relay): every node held a replica and
 * every write reached every replica, busy, idle in a run and idle between runs; the rows and the chart are written. Nothing about speed.
 */
class WriteLatencyQuickTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void quickRunBringsEveryWriteToEveryReplicaBusyAndIdle() throws IOException {
        quickRun("--quick", "--base-port", "23300");
    }

    /** The same with each site's nodes on a media driver of their own (two drivers). */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void quickRunWithADriverPerSiteBringsEveryWriteToEveryReplica() throws IOException {
        quickRun("--quick", "--base-port", "23310", "--driver-per-site");
    }

    private void quickRun(final String... args) throws IOException {
        final Path csv = dir.resolve("write-latency.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--out";
        all[args.length + 1] = csv.toString();
        final int code = WriteLatencyMain.run(all,
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, () -> out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));

        final List<String[]> rows = Files.readAllLines(csv).stream().skip(1).map(l -> l.split(",", -1)).toList();
        for (final String caseName : List.of("busy", "idle-in-run", "idle-between-runs")) {
            assertEquals(4.0, value(rows, caseName, "replicas"), caseName + ": every node held a replica");
            assertEquals(3.0, value(rows, caseName, "writes"), caseName);
            assertEquals(0.0, value(rows, caseName, "writes_incomplete"), caseName + ": every write reached every replica");
            assertTrue(value(rows, caseName, "last_replica_p50") > 0, caseName);
            assertTrue(value(rows, caseName, "last_replica_p50_per_delay") > 0, caseName);
        }
        assertTrue(Files.size(dir.resolve("write-latency.png")) > 0, "the chart");
        final boolean driverPerSite = java.util.Arrays.asList(args).contains("--driver-per-site");
        assertEquals(driverPerSite, rows.get(0)[5].contains("a media driver per site"), "the rows say how the drivers were set up: " +
            String.join(",", rows.get(0)));
    }

    private static double value(final List<String[]> rows, final String caseName, final String metric) {
        return rows.stream().filter(r -> r[0].equals(caseName) && r[2].equals(metric)).mapToDouble(r -> Double.parseDouble(r[3]))
            .findFirst().orElseThrow(() -> new AssertionError("no row " + caseName + "/" + metric));
    }
}
