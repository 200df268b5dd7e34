package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SAT divide and share on real processes with the master SIGKILLed mid-run (issue 8), in the style of
 * {@link SharedObjectsRunTest}: 3 single-worker nodes, the master killed 0.5 s in, the registry gives the root to the
 * other child, which re-spawns it, restarted. What makes SAT share worth a test of its own: below its fixed cube
 * depth a job splits when the shared global conflict count says so, and its solvers import clauses others learned,
 * so a stamp under the cube depth does not name the same subtree from one run of the root to the next; only the
 * fingerprint check (stamp and encoded job agree) keeps a takeover from reusing another cube's answer. The instance is
 * unsatisfiable, so the answer needs every cube refuted, the dead master's included. (A satisfiable one was tried:
 * random 250 variables, seed 4, 12.3 s sequentially, found its model in 0.6 s on 3 nodes, before any kill.)
 */
class SharedSatTakeoverRunTest {
    /**
     * Unsatisfiable, so every cube must be refuted and none is skipped by an early model: 12.1 s sequentially on the
     * 2-core development machine (the shipped SATLIB instances end within 0.5 s on 3 nodes, before any kill); the
     * check solves it again sequentially on node 0. On 3 nodes with the master killed at 1 s it took 1.7-3.0 s (6
     * runs on 2026-11-26, every one right, one takeover each, one orphan reused): hence the kill at 0.5 s, well
     * before a run without a kill could end.
     */
    private static final List<String> SAT_UNSAT = List.of("sat", "--mode", "share", "--random", "230", "--seed", "1",
        "--progress-seconds", "0");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldProveUnsatisfiableWithTheMasterKilledMidRun() throws Exception {
        final String output = runKillingTheMaster(SAT_UNSAT);
        assertTrue(output.contains("unsatisfiable: random-3sat-230x980-seed-1"), output);
        assertTrue(output.contains("the sequential solver finds no model either"), output);
    }

    /** Runs {@code app} on 3 nodes, the master SIGKILLed at 1.5 s; checks the run passed after one takeover. */
    private String runKillingTheMaster(final List<String> app) throws Exception {
        final LauncherProcess run = launchers.run(app, "--nodes", "3", "--workers", "1", "--timeout-seconds", "120",
            "--shared-write-combining-ms", "20", "--kill-at", "master@0.5");
        final Matcher killed = run.awaitMatch(Pattern.compile("divvy run: t=\\d+\\.\\d\\d s: killed the master, (node \\d) \\(pid "
            + "\\d+, site default, node id \\d+\\), as --kill-at master@0.5 asked"), 90);
        final int exit = run.awaitExit(150);
        final String output = run.output();
        System.out.println(output);
        assertFalse(output.contains("divvy run failed"), output);
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("PASS:"), output);
        assertTrue(output.contains("takeovers: 1\n"), "a new master finished the run:\n" + output);
        assertTrue(output.contains("divvy run: all 2 surviving local nodes ended with exit code 0; " + killed.group(1)
            + " died during the run"), output);
        return output;
    }
}
