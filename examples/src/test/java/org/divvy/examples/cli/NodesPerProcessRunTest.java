package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code divvy run --nodes-per-process}: the nodes of a site share one child JVM (each its own node and endpoint), run
 * a real app to the right answer, and a SIGKILL of that JVM, a whole site crashing at once, is survived. Real
 * processes, N-queens 16 (about 11 s on 3 single-worker nodes here), {@code --timeout-seconds 120}.
 */
class NodesPerProcessRunTest {
    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldRunTwoSitesOfTwoNodesInTwoChildProcessesAndSurviveTheKillOfOne() throws Exception {
        final LauncherProcess run = launchers.run(Launchers.NQUEENS_16, "--nodes", "5", "--sites", "R:1,A:2,B:2",
            "--nodes-per-process", "2", "--workers", "1", "--timeout-seconds", "120", "--kill-site", "B@1.5");
        // both nodes of site B announced with the one pid of their process, killed together
        final Matcher killed = run.awaitMatch(Pattern.compile("divvy run: t=(\\d+\\.\\d\\d) s: killed node 3 \\(pid (\\d+), "
            + "site B, node id (\\d+)\\), node 4 \\(pid (\\d+), site B, node id (\\d+)\\) as --kill-site B@1.5 asked"), 90);
        assertEquals(killed.group(2), killed.group(4), "nodes 3 and 4 share a process:\n" + run.output());
        run.awaitLine("divvy run: node 3 (pid " + killed.group(2) + ", site B, node id " + killed.group(3)
            + ") died with SIGKILL (exit 137); the run goes on, the other nodes recover its work", 10);
        run.awaitLine("divvy run: node 4 (pid " + killed.group(4) + ", site B, node id " + killed.group(5)
            + ") died with SIGKILL (exit 137); the run goes on, the other nodes recover its work", 10);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        // the two nodes of site A, one process, each ended with the run and printed its own statistics
        assertEquals(2, Pattern.compile("\\[nodes 1-2\\] node id \\d+: the computation ended with exit code 0")
            .matcher(output).results().count(), output);
        assertEquals(2, Pattern.compile("\\[nodes 1-2\\] node id \\d+ jobs since it joined: ").matcher(output)
            .results().count(), output);
        assertTrue(output.contains("divvy run: all 3 surviving local nodes ended with exit code 0; nodes 3 and 4 died "
            + "during the run"), output);
    }

    /**
     * One node of a process of several ends alone while its mates work on ({@code divvy leave} of its node id through
     * the registry): its end line makes the launcher report it at once as left, and at the end each node is judged by
     * its own end line, so the run passes and counts it apart.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldReportANodeThatEndsAloneInsideASharedProcessAndStillPass() throws Exception {
        final LauncherProcess run = launchers.run(Launchers.NQUEENS_16, "--nodes", "4", "--nodes-per-process", "3",
            "--workers", "1", "--timeout-seconds", "120");
        final Matcher registry = run.awaitMatch(Pattern.compile("divvy run: local node 0 \\(this process, pid \\d+, site "
            + "default\\) at (\\S+), hosting the registry"), 90);
        run.awaitMatch(Pattern.compile("divvy run: the registry gives the root to node \\d \\(pid \\d+, site default, "
            + "node id 1\\)"), 90);
        Thread.sleep(2000); // well into the run
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        final int leaveExit = org.divvy.examples.Launcher.execute(new String[] {"leave", "--join", registry.group(1), "2"},
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
            new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(0, leaveExit, out.toString(java.nio.charset.StandardCharsets.UTF_8));
        run.awaitMatch(Pattern.compile("\\[nodes 1-3\\] node id 2 left the running computation \\(divvy leave\\)"), 30);
        final Matcher left = run.awaitMatch(Pattern.compile("divvy run: node (\\d) \\(pid \\d+, site default, node id 2\\) "
            + "left \\(exit code 0\\); the run goes on"), 30);
        final String output = run.awaitPassed(Launchers.NQUEENS_16_ANSWER, 150);
        assertEquals(3, Pattern.compile("\\[nodes 1-3\\] node id \\d+ ended: exit 0").matcher(output).results().count(),
            output);
        assertTrue(output.contains("divvy run: all 3 remaining local nodes ended with exit code 0; node " + left.group(1)
            + " left during the run"), output);
    }
}
