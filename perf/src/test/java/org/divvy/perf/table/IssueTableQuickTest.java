package org.divvy.perf.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.divvy.perf.PerfMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code table --quick}: every row of issue 10's table measured by its own subcommand in a child JVM (real node
 * processes, real Aeron, answers checked by each subcommand), read back into one line per row with its target, verdict
 * and command. Nothing about speed: the quick sizes mean nothing.
 */
class IssueTableQuickTest {
    private static final List<String> ROWS = List.of("fib35", "fib35-one", "kernel-seq", "kernel-divvy", "speedup", "memory-peak",
        "memory-idle", "wan-control", "wan-10ms", "wan-10ms-relative", "wan-50ms", "wan-50ms-relative");

    @Test
    @Timeout(150)
    void shouldMeasureEveryRowAndPrintItWithItsTargetAndCommand(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("issue10-table.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = PerfMain.run(new String[] {"table", "--quick", "--base-port", "30400", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, () -> "stdout:\n" + printed + "\nstderr:\n" + err);

        final CsvFile table = CsvFile.read(csv);
        for (final String row : ROWS) {
            final Map<String, String> r = table.only("row", row);
            final double value = Double.parseDouble(r.get("value"));
            assertTrue(value > 0 && Double.isFinite(value), row + ": " + r);
            assertTrue(r.get("command").startsWith(PerfChild.JAR_COMMAND + " "), row + " names the command that reproduces it: " + r);
            final boolean targeted = !r.get("target").equals("-");
            assertEquals(targeted, List.of("met", "NOT met").contains(r.get("met")), row + ": a verdict exactly when there is a target: " + r);
            final String summaryLine = r.get("measure") + " | ";
            assertTrue(printed.lines().anyMatch(l -> l.startsWith(summaryLine) && l.endsWith(" | " + r.get("command"))),
                row + " is printed at the end with its command:\n" + printed);
        }
        assertEquals(ROWS.size(), table.records(r -> true).size(), "one CSV line per row");
        assertNotNull(ImageIO.read(csv.resolveSibling("issue10-table.png").toFile()), "the chart is a readable PNG");
        for (final String own : List.of("single-node.csv", "single-node-samples.csv", "uts-kernel.csv", "uts-speedup.csv",
            "uts-memory.csv", "lanwan.csv")) {
            assertTrue(Files.isRegularFile(dir.resolve("issue10-table").resolve(own)), own + " of the row's own command is kept");
        }
        // the commands are the ones each row is measured by alone
        assertTrue(printed.contains(PerfChild.shown(null, List.of("--only", "fib35,fib35-one", "--rounds", "3", "--quick"))),
            printed);
        assertTrue(printed.contains(PerfChild.shown(null, List.of("lanwan", "--efficiency", "--delays-ms", "10,50", "--policies",
            "CRS", "--repeats", "1", "--base-port", "30400", "--quick"))), printed);
    }

    @Test
    @Timeout(60)
    void shouldReportARowWhoseCommandFailsAndExitWithOne(@TempDir final Path dir) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int exit = PerfMain.run(new String[] {"table", "--quick", "--rows", "memory", "--lock",
                dir.resolve("no-such-directory").resolve("lock").toString(), "--out", dir.resolve("t.csv").toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, printed);
        assertTrue(printed.contains("memory: FAILED: flock " + dir.resolve("no-such-directory").resolve("lock")), printed);
    }

    @Test
    @Timeout(30)
    void shouldRefuseAnUnknownRowNamingTheKnownOnes() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, PerfMain.run(new String[] {"table", "--rows", "fib,nope"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("divvy-perf table: --rows nope: no such row; known: [fib, kernel, speedup, memory, wan]",
            err.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    @Timeout(30)
    void shouldRefuseZeroRounds() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, PerfMain.run(new String[] {"table", "--rounds", "0"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("divvy-perf table: --rounds=0, must be >= 1", err.toString(StandardCharsets.UTF_8).strip());
    }

    /** The rows' own files go into the directory named by the CSV without {@code .csv}: another name would be that directory. */
    @Test
    @Timeout(30)
    void shouldRefuseAnOutputThatIsNotACsvFile() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, PerfMain.run(new String[] {"table", "--out", "results/t"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("divvy-perf table: --out results/t: must name a .csv file (the chart and the rows' directory go beside it)",
            err.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    @Timeout(30)
    void shouldMeasureTheChosenRowsInTheTablesOrder() {
        assertEquals(List.of(IssueRow.FIB, IssueRow.MEMORY, IssueRow.WAN), IssueTable.rows("wan, fib,memory"));
    }
}
