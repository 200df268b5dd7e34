package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fault-tolerance scenarios as {@code divvy run} scripts them ({@code --kill-at}, {@code --join-at}), on real
 * processes: a node killed mid-run is survived (the others recover its work) and the answer is still right, the
 * master too (another node takes the root over); a node that joins the running computation steals work and ends
 * with the run. Every run has
 * {@code --timeout-seconds 120}, so a run that cannot finish fails instead of hanging.
 *
 * <p>N-queens 16 (14,772,512 solutions) is the work: about 11 s on 3 single-worker nodes on the 2-core development
 * machine, 15-20 s on 2 (n = 15 is under 3 s, too short to kill or join a node well inside it).
 */
class FaultInjectionRunTest {
    /** What a joined node prints at its end: {@code node id 3 since it joined: remote steals: site 5/9, ...}. */
    private static final Pattern JOINED_STATISTICS = Pattern.compile("\\[node 2\\] node id \\d+ since it joined: remote steals: "
        + "site (\\d+)/(\\d+), wide-area (\\d+)/(\\d+); jobs given (\\d+), run for peers (\\d+)");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    private LauncherProcess run(final String... runOptions) throws Exception {
        return launchers.run(Launchers.NQUEENS_16, runOptions);
    }

    /**
     * Needs the runtime's recovery of a dead node's work (orphan saving): without it the master's {@code sync()} on
     * the job node 2 held fails with a {@code NodeFailedException} once node 2 is declared dead.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldSurviveANodeKilledAtOneAndAHalfSecondsAndStillCountRight() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "120", "--kill-at", "2@1.5");
        final Matcher killed = run.awaitMatch(Pattern.compile(
            "divvy run: t=(\\d+\\.\\d\\d) s: killed node 2 \\(pid (\\d+), site default, node id (\\d+)\\) as --kill-at 2@1.5 "
                + "asked"), 90);
        final double killedAt = Double.parseDouble(killed.group(1));
        assertTrue(killedAt >= 1.5 && killedAt < 3, "killed at t=" + killedAt + " s:\n" + run.output());
        final String died = "divvy run: node 2 (pid " + killed.group(2) + ", site default, node id " + killed.group(3)
            + ") died with SIGKILL (exit 137); "
            + "the run goes on, the other nodes recover its work";
        run.awaitLine(died, 10);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        assertTrue(output.contains("divvy run: all 2 surviving local nodes ended with exit code 0; node 2 died during the run"),
            output);
    }

    /**
     * A child's exit is certain as soon as the operating system reports it: node 0, which started it and hosts the
     * registry, has it declared dead at once. With a failure detector that would wait 10 minutes for the silence,
     * the run still recovers the node's work and passes well inside its 60 s timeout (before, it waited for the
     * detector and timed out).
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldDeclareAKilledChildDeadWhenItsProcessExitsNotAfterTheDetectorsWait() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "60",
            "--acceptable-heartbeat-pause-ms", "600000", "--kill-at", "2@1.5");
        run.awaitMatch(Pattern.compile("divvy run: t=\\d+\\.\\d\\d s: killed node 2 .* as --kill-at 2@1.5 asked"), 90);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 90);
        assertTrue(Pattern.compile("node \\d+ \\(site default, [^)]*\\) was declared dead by the registry at epoch \\d+: "
            + "its process exited").matcher(output).find(), output);
        assertTrue(output.contains("divvy run: all 2 surviving local nodes ended with exit code 0; node 2 died during the run"),
            output);
    }

    /**
     * Master takeover: the child the registry gave the root to is SIGKILLed 1.5 s in; once the registry declares it
     * dead (about 7.6 s later with the default failure detector) it gives the root to the next member, which runs it
     * again, restarted, reusing the results the others saved, and node 0 still prints the right count. About 20 s.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldSurviveTheMasterKilledAtOneAndAHalfSecondsByATakeover() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "120", "--kill-at", "master@1.5");
        final Matcher expected = run.awaitMatch(Pattern.compile("divvy run: the registry gives the root to (node \\d \\(pid \\d+, "
            + "site default, node id (\\d+)\\)): the member with the lowest node id other than node 0; if it dies, to the next"), 90);
        final Matcher killed = run.awaitMatch(Pattern.compile("divvy run: t=(\\d+\\.\\d\\d) s: killed the master, (node \\d \\(pid "
            + "\\d+, site default, node id (\\d+)\\)), as --kill-at master@1.5 asked"), 30);
        assertEquals(expected.group(1), killed.group(2), "the node killed is the one named as the master:\n" + run.output());
        assertEquals("1", killed.group(3), "the master is the child with the lowest node id:\n" + run.output());
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        final Matcher master = Pattern.compile("master: (node \\d \\(pid \\d+, site default, node id (\\d+)\\)); takeovers: (\\d+)\n")
            .matcher(output);
        assertTrue(master.find(), output);
        assertEquals("1", master.group(3), "one takeover:\n" + output);
        assertNotEquals(killed.group(2), master.group(1), "a new master finished the run:\n" + output);
        assertTrue(output.contains("the master's statistics (its run of the root):\nrun "), output);
        assertTrue(output.contains("divvy run: all 2 surviving local nodes ended with exit code 0; " + killed.group(2)
            .replaceFirst(" \\(.*", "") + " died during the run"), output);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldLetANodeJoinTheRunningComputationAndSteal() throws Exception {
        final LauncherProcess run = run("--nodes", "2", "--workers", "1", "--timeout-seconds", "120", "--join-at", "1");
        run.awaitMatch(Pattern.compile("divvy run: t=1\\.\\d\\d s: started node 2 \\(pid \\d+, site default\\) as --join-at 1 "
            + "asked; it joins the running computation"), 90);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        final Matcher statistics = JOINED_STATISTICS.matcher(output);
        assertTrue(statistics.find(), "node 2 prints its statistics at its end:\n" + output);
        assertTrue(Integer.parseInt(statistics.group(1)) > 0, "node 2 stole from the others: " + statistics.group());
        assertTrue(Integer.parseInt(statistics.group(6)) > 0, "node 2 ran jobs for the others: " + statistics.group());
        assertTrue(Pattern.compile("\\[node 2\\] node id \\d+: the computation ended with exit code 0")
            .matcher(output).find(), "node 2 ended with the run:\n" + output);
        assertTrue(output.contains("divvy run: all 3 local nodes ended with exit code 0"), output);
    }
}
