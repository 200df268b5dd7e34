package org.divvy.perf.uts;

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

/** A quick run of every UTS row with real node processes: each writes its rows and chart. Nothing about speed. */
class UtsQuickTest {
    @Test
    @Timeout(300)
    void shouldMeasureEveryRowAndDrawEveryChart(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("uts.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = UtsMain.run(new String[] {"--quick", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);

        final List<String> lines = Files.readAllLines(csv);
        assertEquals(UtsMain.HEADER, lines.get(0));
        for (final String metric : List.of("kernel,sequential,median", "kernel,divvy-1-worker,median", "speedup,ratio,wall", "speedup,ratio,first_wall",
            "memory,node-0,peak_rss", "memory,node-1,peak_rss", "memory,node-1,idle_rss")) {
            final String row = lines.stream().filter(l -> l.startsWith(metric + ",")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + metric + " in\n" + String.join("\n", lines)));
            final double value = Double.parseDouble(row.split(",")[3]);
            assertTrue(value > 0 && Double.isFinite(value), row);
        }
        for (final String metric : List.of("speedup,1-node-1-worker,compiler_cpu", "speedup,2-nodes-1-worker,compiler_cpu")) {
            final String row = lines.stream().filter(l -> l.startsWith(metric + ",")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + metric + " in\n" + String.join("\n", lines)));
            final double ms = Double.parseDouble(row.split(",")[3]);
            assertTrue(ms >= 0 && Double.isFinite(ms), "the compilers' CPU during the timed run is measured (Linux /proc): " + row);
        }
        for (final String section : List.of("kernel", "speedup", "memory")) {
            assertNotNull(ImageIO.read(dir.resolve("uts-" + section + ".png").toFile()), section + " chart is a readable PNG");
        }
        final String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("bin/divvy run --nodes 2 --workers 1 --warmup-runs 3 uts -t 1 -a 3 -d 9 -b 4 -r 19"),
            "each row names its command:\n" + printed);
    }

    @Test
    @Timeout(300)
    void shouldMeasureTheMachinesControlForEveryKindOfLoop(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("uts.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = UtsMain.run(new String[] {"--control", "--quick", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);

        final List<String> lines = Files.readAllLines(csv);
        for (final String kind : List.of("sequential", "divvy", "sha1", "int")) {
            for (final String metric : List.of("alone", "each_of_two", "ratio")) {
                final String key = "control," + kind + "," + metric + ",";
                final String row = lines.stream().filter(l -> l.startsWith(key)).findFirst()
                    .orElseThrow(() -> new AssertionError("no row " + key + " in\n" + String.join("\n", lines)));
                final double value = Double.parseDouble(row.split(",")[3]);
                assertTrue(value > 0 && Double.isFinite(value), row);
            }
        }
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("speedup,") || l.startsWith("kernel,")),
            "--control alone runs no other section:\n" + String.join("\n", lines));
        assertNotNull(ImageIO.read(dir.resolve("uts-control.png").toFile()), "control chart is a readable PNG");
    }

    @Test
    @Timeout(30)
    void shouldRefuseZeroWarmupRuns() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, UtsMain.run(new String[] {"--speedup", "--warmup-runs", "0"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--warmup-runs=0, must be >= 1"), err.toString());
    }

    @Test
    @Timeout(30)
    void shouldRefuseZeroRounds() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, UtsMain.run(new String[] {"--rounds", "0"}, new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--rounds=0, must be >= 1"), err.toString());
    }
}
