package org.divvy.perf;

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
import java.util.stream.Collectors;

import javax.imageio.ImageIO;

import org.divvy.perf.single.ResultCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Smoke tests of the command line: a quick run writes every output, bad usage is reported. Nothing about speed. */
class PerfMainTest {
    @Test
    @Timeout(120)
    void shouldWriteARowPerBenchmarkInQuickMode(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("single-node.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int exit = PerfMain.run(
            new String[] {"--quick", "--rounds", "2", "--warmup", "1", "--settle-ms", "1", "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, () -> "stdout:\n" + out + "\nstderr:\n" + err);

        final List<String> lines = Files.readAllLines(csv);
        assertEquals(ResultCsv.MEDIANS_HEADER, lines.get(0));
        final List<String> ids = lines.stream().skip(1).map(line -> line.substring(0, line.indexOf(',')))
            .collect(Collectors.toList());
        assertEquals(PerfMain.benchmarkIds(), ids, "one row per benchmark, in order");
        final int columns = ResultCsv.MEDIANS_HEADER.split(",").length;
        for (final String line : lines.subList(1, lines.size())) {
            assertEquals(columns, line.split(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", -1).length, line);
        }

        final List<String> samples = Files.readAllLines(dir.resolve("single-node-samples.csv"));
        assertEquals(1 + ids.size() * 3 * 2, samples.size(), "3 contenders x 2 rounds per benchmark");
        assertNotNull(ImageIO.read(dir.resolve("single-node.png").toFile()), "the chart is a readable PNG");
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("Divvy/FJP"), "the table is printed");
    }

    @Test
    @Timeout(60)
    void shouldRunOnlyTheChosenBenchmarks(@TempDir final Path dir) throws IOException {
        final Path csv = dir.resolve("only.csv");
        final int exit = PerfMain.run(new String[] {"--quick", "--rounds", "1", "--warmup", "0", "--only", "fib35,uts",
            "--out", csv.toString()}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(0, exit);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(3, lines.size());
        assertTrue(lines.get(1).startsWith("fib35,"));
        assertTrue(lines.get(2).startsWith("uts,"));
    }

    @Test
    @Timeout(30)
    void shouldRejectBadUsageWithExitCodeTwo() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertEquals(2, PerfMain.run(new String[] {"--bogus"}, quiet, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--bogus"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, PerfMain.run(new String[] {"--rounds", "0"}, quiet, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("rounds=0, must be >= 1"));
        assertEquals(2, PerfMain.run(new String[] {"--only", "nope"}, quiet, errStream));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--only nope: no such benchmark"));
    }
}
