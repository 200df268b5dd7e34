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

/** shared-traffic at --quick size: every app's row, combining off and at its delay, checked, counted, written. Nothing about speed. */
class SharedTrafficQuickTest {
    @Test
    @Timeout(300)
    void shouldMeasureEveryAppOffAndAtItsDelay(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("shared-traffic.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = SharedTraffic.run(new String[] {"--quick", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);
        final List<String> rows = Files.readAllLines(csv);
        assertEquals(SharedTraffic.HEADER, rows.get(0));
        assertEquals(1 + 2 * SharedTraffic.APPS.size(), rows.size(), String.join("\n", rows));
        for (final SharedTraffic.AppRow app : SharedTraffic.APPS) {
            for (final long ms : new long[] {0, app.combiningMs()}) {
                final String prefix = app.label() + "," + ms + ",";
                final String row = rows.stream().filter(r -> r.startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no row " + prefix + " in\n" + String.join("\n", rows)));
                final String[] cells = row.split(",");
                assertTrue(Long.parseLong(cells[2]) > 0, "the app wrote to its shared object: " + row);
                assertTrue(Long.parseLong(cells[4]) > 0, "writes were broadcast: " + row);
            }
        }
        assertTrue(rows.stream().anyMatch(r -> r.startsWith("TSP,")) && rows.stream().anyMatch(r -> r.startsWith("Barnes-Hut,")),
            String.join("\n", rows));
        assertNotNull(ImageIO.read(dir.resolve("shared-traffic.png").toFile()), "the chart is a readable PNG");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("bin/divvy run --nodes 4 --workers 1 "
            + "--shared-write-combining-ms 2 tsp --mode share"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldSelectRowsByIdAndRefuseAnUnknownOne() {
        assertEquals(List.of("tsp", "barneshut"), SharedTraffic.selected("barneshut,tsp").stream().map(SharedTraffic.AppRow::id).toList());
        assertEquals(SharedTraffic.APPS, SharedTraffic.selected(""));
        assertTrue(SharedTraffic.selected("tsp,fib").isEmpty());
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, SharedTraffic.run(new String[] {"--only", "fib"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("barneshut"), err.toString());
    }
}
