package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Graceful leaves and migration as {@code divvy run} scripts them ({@code --leave-at}, {@code --join-at}), on real
 * processes: a node asked to leave (SIGTERM) hands what it finished to a staying node, which the others reuse, and the
 * answer is still right, the master's leave included (another node takes the root over); a migration (new nodes join,
 * then the old ones leave) ends with the right answer on the new nodes. Every run has {@code --timeout-seconds 120},
 * so a run that cannot finish fails instead of hanging. N-queens 16: about 11 s on 3 single-worker nodes here.
 */
class LeaveAndMigrationRunTest {
    /** What a leaver prints: {@code [node 2] node id 1 left the running computation (SIGTERM): handed 18 ...}. */
    private static final Pattern HANDED_OVER = Pattern.compile("\\[node (\\d)\\] node id \\d+ left the running computation "
        + "\\(SIGTERM\\): handed (\\d+) finished result\\(s\\) over to a staying node");
    /** The recovery line of a node's statistics: what it reused. */
    private static final Pattern RECOVERY = Pattern.compile("reused (\\d+) \\(asked \\d+, held here \\d+\\)");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    private LauncherProcess run(final String... runOptions) throws Exception {
        return launchers.run(Launchers.NQUEENS_16, runOptions);
    }

    /**
     * The master leaves 4 s in: it hands over what it finished for others (nothing: it ran the root, its own work),
     * the registry gives the root to another child, which runs it again and reuses what the others finished for the
     * leaver's jobs (their orphans): the statistics show the reuse.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldSurviveTheMasterLeavingGracefullyAndReuseWhatTheOthersFinished() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "120", "--leave-at", "master@4");
        final Matcher asked = run.awaitMatch(Pattern.compile("divvy run: t=(\\d+\\.\\d\\d) s: asked to leave \\(SIGTERM\\) the "
            + "master, (node (\\d) \\(pid \\d+, site default, node id 1\\)), as --leave-at master@4 asked"), 90);
        run.awaitLine("divvy run: " + asked.group(2) + " left (SIGTERM (exit 143)); the run goes on, the other nodes reuse "
            + "what it handed over and redo the rest", 30);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        final Matcher handed = HANDED_OVER.matcher(output);
        assertTrue(handed.find(), "the leaver says what it handed over:\n" + output);
        assertEquals(asked.group(3), handed.group(1), output);
        long reused = 0;
        final Matcher recovery = RECOVERY.matcher(output);
        while (recovery.find()) {
            reused += Long.parseLong(recovery.group(1));
        }
        assertTrue(reused > 0, "the new master's run reused finished work:\n" + output);
        assertTrue(Pattern.compile("master: node \\d \\(pid \\d+, site default, node id \\d+\\); takeovers: 1\n").matcher(output)
            .find() || output.contains("master: node 0 (this process, node id 0); takeovers: 1"), output);
        assertTrue(output.contains("divvy run: all 2 remaining local nodes ended with exit code 0; node " + asked.group(3)
            + " left during the run"), output);
    }

    /**
     * Migration (thesis §3.5): two new nodes join 1 s in, the two old children leave 4 s in (the master among them;
     * at 6 s the run had once ended already);
     * the computation moves to the new nodes and ends there with the right answer.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldMigrateToNewNodesAndStillCountRight() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "120", "--join-at", "1x2",
            "--leave-at", "1@4,2@4");
        run.awaitMatch(Pattern.compile("divvy run: t=1\\.\\d\\d s: started node 3 \\(pid \\d+, site default\\), node 4 \\(pid "
            + "\\d+, site default\\) as --join-at 1x2 asked; they join the running computation"), 90);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        final Matcher handed = HANDED_OVER.matcher(output);
        int leavers = 0;
        while (handed.find()) {
            leavers++;
        }
        assertEquals(2, leavers, "each old node says what it handed over as it leaves:\n" + output);
        for (final int old : new int[] {1, 2}) {
            assertTrue(Pattern.compile("divvy run: node " + old + " \\(pid \\d+, site default, node id \\d+\\) left \\(SIGTERM "
                + "\\(exit 143\\)\\)").matcher(output).find(), "node " + old + " left:\n" + output);
        }
        for (final int added : new int[] {3, 4}) {
            assertTrue(Pattern.compile("\\[node " + added + "\\] node id \\d+: the computation ended with exit code 0")
                .matcher(output).find(), "node " + added + " ended with the run:\n" + output);
        }
        assertTrue(output.contains("divvy run: all 3 remaining local nodes ended with exit code 0; nodes 1 and 2 left during "
            + "the run"), output);
        // a leaver's exit, which its starter reports at once, may overtake its LEAVE: it is still a leave, not a death
        assertFalse(output.contains("was declared dead"), "nobody crashed:\n" + output);
    }

    /**
     * {@code divvy leave} through the registry: a separate process (here this test's JVM, holding the run's secret,
     * DIVVY_SECRET) asks node 0's registry to make node id 2 leave, and refuses node 0 itself; the node leaves
     * gracefully (exit 0, saying what it handed over), and the run still counts right.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldMakeANodeLeaveWhenDivvyLeaveAsksTheRegistry() throws Exception {
        final LauncherProcess run = run("--nodes", "3", "--workers", "1", "--timeout-seconds", "120");
        final Matcher registry = run.awaitMatch(Pattern.compile("divvy run: local node 0 \\(this process, pid \\d+, site "
            + "default\\) at (\\S+), hosting the registry"), 90);
        run.awaitMatch(Pattern.compile("divvy run: the registry gives the root to node \\d \\(pid \\d+, site default, node id 1\\)"),
            90);
        Thread.sleep(2000); // well into the run
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        final int leaveExit = Launcher.execute(new String[] {"leave", "--join", registry.group(1), "2", "0"},
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
            new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        final String answer = out.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, leaveExit, "node 0 may not leave:\n" + answer + err);
        assertTrue(Pattern.compile("divvy leave: node 2: asked to leave \\(127\\.0\\.0\\.1:\\d+\\)\n").matcher(answer).find(),
            answer + err);
        assertTrue(answer.contains("divvy leave: node 0: not asked: it hosts the registry"), answer);
        final Matcher left = run.awaitMatch(Pattern.compile("\\[node (\\d)\\] node id 2 left the running computation \\(divvy "
            + "leave\\): handed \\d+ finished result\\(s\\) over to a staying node"), 30);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        assertTrue(output.contains("divvy run: all 2 remaining local nodes ended with exit code 0; node " + left.group(1)
            + " left during the run"), output);
        assertFalse(output.contains("was declared dead"), "nobody crashed:\n" + output);
    }
}
