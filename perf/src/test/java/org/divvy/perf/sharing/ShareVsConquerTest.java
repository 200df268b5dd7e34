package org.divvy.perf.sharing;

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

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** ds-vs-dc with real node processes at a tiny size: both modes on 1 and 4 nodes, checked, written. Nothing about speed. */
class ShareVsConquerTest {
    @Test
    @Timeout(240)
    void shouldRunBothModesOnOneAndFourNodesAndWriteTheTableAndChart(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("ds-vs-dc.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = ShareVsConquer.run(new String[] {"--quick", "--only", "tsp-known", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);
        final List<String> summary = Files.readAllLines(csv);
        assertEquals(3, summary.size(), String.join("\n", summary)); // header, 1 node, 4 nodes
        for (final String row : summary.subList(1, 3)) {
            final double ratio = Double.parseDouble(row.split(",")[4]);
            assertTrue(ratio > 0 && Double.isFinite(ratio), row);
        }
        final List<String> samples = Files.readAllLines(dir.resolve("ds-vs-dc-samples.csv"));
        assertEquals(5, samples.size(), String.join("\n", samples)); // header + {1, 4} nodes x {conquer, share}
        assertNotNull(ImageIO.read(dir.resolve("ds-vs-dc.png").toFile()), "the chart is a readable PNG");
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("bin/divvy run --nodes 4 --workers 1 --timeout-seconds 120 tsp --random 30 --mode share"),
            "each run names its command:\n" + printed);
    }

    @Test
    @Timeout(300)
    void shouldRunTheSatAndLocusRouteRowsInBothModesWithTheirCombiningDelay(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("ds-vs-dc.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = ShareVsConquer.run(new String[] {"--quick", "--only", "sat-sat,sat-unsat,locusroute", "--out",
            csv.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);
        final List<String> summary = Files.readAllLines(csv);
        assertEquals(7, summary.size(), String.join("\n", summary)); // header + 3 rows x {1, 4} nodes
        final List<String> samples = Files.readAllLines(dir.resolve("ds-vs-dc-samples.csv"));
        assertEquals(13, samples.size(), String.join("\n", samples)); // header + 3 x {1, 4} nodes x {conquer, share}
        for (final String row : samples.subList(1, samples.size())) {
            assertTrue(row.contains(",PASS,"), "every run passed its app's check: " + row);
        }
        assertNotNull(ImageIO.read(dir.resolve("ds-vs-dc.png").toFile()), "the chart is a readable PNG");
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("bin/divvy run --nodes 4 --workers 1 --timeout-seconds 120 --shared-write-combining-ms 20 "
            + "sat --instance uf100-01 --mode share"), "SAT's 4 nodes run with its combining delay:\n" + printed);
        assertTrue(printed.contains("bin/divvy run --nodes 4 --workers 1 --timeout-seconds 120 --shared-write-combining-ms 100 "
            + "locusroute --small --mode conquer"), printed);
    }

    @Test
    void shouldCompareLocusRoutesAnswersByItsCheckOnly() {
        final ShareVsConquer.AppRow locusroute = ShareVsConquer.APPS.stream().filter(a -> a.name().equals("locusroute"))
            .findFirst().orElseThrow();
        assertEquals(ShareVsConquer.Answers.CHECKED, locusroute.answers(), "a routing's quality differs between runs");
        for (final ShareVsConquer.AppRow app : ShareVsConquer.APPS) {
            if (!app.name().equals("locusroute")) {
                assertEquals(ShareVsConquer.Answers.SAME, app.answers(), app.name() + " has one right answer");
            }
        }
        assertTrue(ShareVsConquer.shown(ShareVsConquer.command(locusroute, false, 1, "share", 120))
            .equals("bin/divvy locusroute --mode share --progress-seconds 0 --workers 1"), "no node options on one node");
    }

    @Test
    @Timeout(30)
    void shouldRefuseAnUnknownRow() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, ShareVsConquer.run(new String[] {"--only", "fib"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("tsp-found"), err.toString());
    }

    @Test
    void shouldTakeTheMiddleValue() {
        assertEquals(2.0, ShareVsConquer.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, ShareVsConquer.median(List.of(4.0, 1.0, 2.0, 3.0)));
    }
}
