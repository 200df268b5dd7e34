package org.divvy.perf.faults;

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
 * Smoke test of the {@code faults} section in its tiny {@code --quick} form (5 single-worker node processes, real
 * SIGKILLs, about 45 s): every scenario ran with a right answer, each kill happened, the rows and charts are there.
 * Nothing about speed.
 */
class FaultsQuickTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void quickRunWritesEveryScenarioWithCorrectAnswers() throws IOException {
        final Path csv = dir.resolve("faults.csv");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        // every scenario but 4sites-nocopies, which differs from 4sites by one flag that kill-site-nocopies tries (a
        // scenario costs about 7 s of the build)
        final List<Scenario> scenarios = Scenario.all().stream().filter(sc -> !sc.id().equals("4sites-nocopies")).toList();
        final String only = String.join(",", scenarios.stream().map(Scenario::id).toList());
        final int code = FaultsMain.run(new String[] {"--quick", "--only", only, "--out", csv.toString()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed);

        final List<String> lines = Files.readAllLines(csv);
        assertEquals(FaultsMain.CSV_HEADER, lines.get(0));
        final List<String[]> rows = lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
        for (final Scenario scenario : scenarios) {
            assertEquals(1.0, value(rows, "run", scenario.id(), "answers_correct"), scenario.id());
            assertEquals(1.0, value(rows, "run", scenario.id(), "rounds"), scenario.id());
            assertTrue(value(rows, "run", scenario.id(), "wall_median") > 0, scenario.id());
            assertTrue(value(rows, "orphans", scenario.id(), "jobs_spawned") > 0, scenario.id());
        }
        assertTrue(rows.stream().filter(r -> r[0].equals("run")).allMatch(r -> r[5].startsWith(FaultsMain.SIMULATED)),
            "every run row is labelled " + FaultsMain.SIMULATED);
        assertTrue(value(rows, "overhead", "4sites/4sites-nosave", "ratio_of_medians") > 0);
        assertTrue(value(rows, "crash", "kill-site/3sites", "ratio_of_medians") > 0);
        // a new master took over whenever the master's site was killed; orphan saving off keeps nothing
        assertTrue(value(rows, "orphans", "kill-master-site", "takeovers") >= 1);
        assertTrue(value(rows, "orphans", "kill-master-site-naive", "takeovers") >= 1);
        assertEquals(0.0, value(rows, "orphans", "kill-site-naive", "jobs_in_orphan_tables"));
        assertEquals(0.0, value(rows, "orphans", "kill-master-site-naive", "jobs_in_orphan_tables"));

        final List<String> samples = Files.readAllLines(dir.resolve("faults-samples.csv"));
        assertEquals(FaultsMain.SAMPLES_HEADER, samples.get(0));
        assertEquals(scenarios.size() + 1, samples.size(), "one sample per scenario");
        for (final String sample : samples.subList(1, samples.size())) {
            final String[] f = sample.split(",", -1);
            assertEquals("true", f[3], sample);
            final boolean stops = Scenario.named(f[0]).fault().stops();
            assertEquals(stops, !f[6].isEmpty(), "a site was stopped exactly in the crash, leave and migration scenarios: "
                + sample);
            if (!Scenario.named(f[0]).resultCopies()) {
                assertEquals("0", f[24], "result copies off: nothing copied: " + sample);
            } else if (f[0].equals("4sites")) {
                assertTrue(Long.parseLong(f[24]) > 0, "jobs that ran 100 ms were copied: " + sample);
            }
        }
        for (final String figure : List.of("overhead", "crash", "orphans", "malleability")) {
            assertTrue(Files.size(dir.resolve("faults-" + figure + ".png")) > 0, figure);
        }
        assertTrue(value(rows, "leave", "leave-site/kill-site", "ratio_of_medians") > 0);
        assertTrue(value(rows, "migration", "migrate-site/4sites", "ratio_of_medians") > 0);
        final String runs = Files.readString(dir.resolve("faults-runs.log"));
        assertTrue(runs.contains("SIGKILLed site") && runs.contains("SIGTERMed (a graceful leave) site"), runs);
        assertTrue(runs.contains("as --join-at"), "the migration's new site started");
        assertTrue(runs.contains("left the running computation (SIGTERM)"), "a leaving node said what it handed over");
    }

    private static double value(final List<String[]> rows, final String section, final String caseName,
        final String metric) {
        return rows.stream().filter(r -> r[0].equals(section) && r[1].equals(caseName) && r[2].equals(metric))
            .mapToDouble(r -> Double.parseDouble(r[3])).findFirst()
            .orElseThrow(() -> new AssertionError("no row " + section + "," + caseName + "," + metric));
    }
}
