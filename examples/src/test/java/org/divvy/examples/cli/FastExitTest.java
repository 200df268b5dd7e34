package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, finding 5: SIGTERM (what {@code kill} and service managers send) ends a node process mid-run within a few
 * seconds and prints no exception trace, and a failed run ends soon after its error. Both used to wait 10 s for the
 * workers ("worker ... did not stop within 10000 ms"), and SIGTERM ended with an uncaught exception's trace. Real
 * processes, signalled by their pid.
 */
class FastExitTest {
    /** 987 leaves of 20 ms on single-worker nodes: about 10 s of run, so a SIGTERM 2 s in lands mid-run. */
    private static final List<String> FIB_RUN = List.of("--workers", "1", "fib", "-n", "29", "--threshold", "16",
        "--simulate-leaf-us", "20000", "--progress-seconds", "0");
    private static final Pattern NODE0_ENDPOINT = Pattern.compile("local node 0 \\(this process[^)]*\\) at (\\S+?),");
    private static final Pattern NODE_JOINED = Pattern.compile("node id (\\d+) \\((\\S+), site (\\S+),");
    /** Well inside the old 10 s wait for workers; a node's graceful leave on exit is bounded by about 2 s. */
    private static final int EXIT_SECONDS = 6;

    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRunProcessSentSigtermMidRunShouldExitAtOnceWithoutATraceAndEndItsChildren() throws Exception {
        final LauncherProcess run = launchers.run(FIB_RUN, "--nodes", "2");
        run.awaitLine("nodes joined", 60);
        Thread.sleep(2_000);
        final List<ProcessHandle> children = run.process().children().toList();
        assertTrue(!children.isEmpty(), run.output());
        sigterm(run.process().pid());
        run.awaitExit(EXIT_SECONDS); // fails with the output if it is still running
        assertNoTrace(run.output());
        for (final ProcessHandle child : children) {
            assertTrue(child.onExit().get(EXIT_SECONDS, TimeUnit.SECONDS) != null, "child " + child.pid() + " ended");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aJoinedNodeSentSigtermMidRunShouldExitAtOnceWithoutATrace() throws Exception {
        final LauncherProcess run = launchers.run(FIB_RUN, "--nodes", "1", "--await", "1", "--timeout-seconds", "100");
        final String registry = run.awaitMatch(NODE0_ENDPOINT, 60).group(1);
        final LauncherProcess node = launchers.start("node", "--join", registry, "--workers", "1");
        final Matcher joined = node.awaitMatch(NODE_JOINED, 60);
        run.awaitLine("nodes joined", 60);
        Thread.sleep(2_000);
        sigterm(node.process().pid());
        node.awaitExit(EXIT_SECONDS);
        assertNoTrace(node.output());
        assertTrue(node.output().contains("node id " + joined.group(1) + " left"), node.output());
        // the run goes on without it and still checks its answer
        run.awaitPassed("fib(29) = 514229", 100);
        assertNoTrace(run.output());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFailedRunShouldEndSoonAfterItsError(@TempDir final Path dir) throws Exception {
        // quadrants of 320x240 pixels: results of 300 KB, above a 64 KiB bound, fail the run on the first stolen one
        final LauncherProcess run = launchers.run(List.of("--workers", "1", "raytracer", "--width", "640", "--height", "480",
            "--samples", "1", "--out", dir.resolve("image.png").toString(), "--progress-seconds", "0"),
            "--nodes", "2", "--max-message-bytes", "65536");
        run.awaitLine("maxMessageBytes=65536", 60);
        final int exit = run.awaitExit(EXIT_SECONDS);
        assertTrue(exit != 0, run.output());
        assertFalse(run.output().contains("did not stop within"), run.output());
    }

    private static void assertNoTrace(final String output) {
        assertFalse(output.contains("Exception in thread"), output);
        assertFalse(Pattern.compile("(?m)^\\s+at [\\w$.]+\\(").matcher(output).find(), output);
        assertFalse(output.contains("did not stop within"), output);
    }

    private static void sigterm(final long pid) throws IOException, InterruptedException {
        final Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(pid)).redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS), "kill -TERM " + pid + " returned");
    }
}
