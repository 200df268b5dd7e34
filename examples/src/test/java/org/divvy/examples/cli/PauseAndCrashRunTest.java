package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 7, finding 2, with the default failure detector: real {@code divvy run} and {@code divvy node}
 * processes, one of them stopped for 5 s ({@code kill -STOP}, then {@code kill -CONT}) or killed mid-run.
 * A stop is what a long GC pause, a suspended laptop or a busy hypervisor looks like to the other nodes;
 * the run must survive it and still print the right answer. A killed node must be named within 10 s, and the
 * run goes on: the others recover its work and the answer is still checked. Only processes this test started are
 * signalled, by their pid.
 */
class PauseAndCrashRunTest {
    /** 987 leaves of 20 ms on 2 single-worker nodes: about 10 s of run, so a stop 2 s in lands mid-run. */
    private static final String[] FIB_RUN = {"--workers", "1", "fib", "-n", "29", "--threshold", "16",
        "--simulate-leaf-us", "20000", "--progress-seconds", "0"};
    private static final String FIB_ANSWER = "fib(29) = 514229";
    private static final long STOP_MS = 5_000;
    /** In `divvy run`, node 0 prints where it is: "local node 0 (this process, pid 1, site default) at 127.0.0.1:40123". */
    private static final Pattern NODE0_ENDPOINT = Pattern.compile("local node 0 \\(this process[^)]*\\) at (\\S+?),");
    private static final Pattern NODE_JOINED = Pattern.compile("node id (\\d+) \\((\\S+), site (\\S+),");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    /** With 2 nodes the only child is the master: stopped for 5 s, it stays the master (a pause is no death). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldSurviveAFiveSecondStopOfTheMaster() throws Exception {
        final LauncherProcess run = launch(args(List.of("run", "--nodes", "2")));
        run.awaitLine("nodes joined", 60);
        Thread.sleep(2_000);
        final List<ProcessHandle> children = run.process().children().toList();
        assertEquals(1, children.size(), run.output());
        ProcessStops.stopFor(children.get(0).pid(), STOP_MS);
        final int exit = run.awaitExit(90);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains(FIB_ANSWER) && output.contains("PASS"), output);
        assertTrue(output.contains("master: node 1 (pid " + children.get(0).pid() + ", site default, node id 1); takeovers: 0"),
            output);
        assertTrue(output.contains("all 2 local nodes ended with exit code 0"), output);
    }

    /**
     * In {@code divvy run} node 0, the run process itself, hosts the registry and waits for the root's value:
     * stopping it stops both, so every other node hears no registry for 5 s, and the master's value waits.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldSurviveAFiveSecondStopOfNodeZeroAndTheRegistry() throws Exception {
        final LauncherProcess run = launch(args(List.of("run", "--nodes", "2")));
        run.awaitLine("nodes joined", 60);
        assertTrue(run.output().contains("hosting the registry"), run.output());
        Thread.sleep(2_000);
        ProcessStops.stopFor(run.process().pid(), STOP_MS);
        final int exit = run.awaitExit(90);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains(FIB_ANSWER) && output.contains("PASS"), output);
        assertTrue(output.contains("all 2 local nodes ended with exit code 0"), output);
    }

    /**
     * A node that is no child of the run ({@code divvy node --join}, as on another machine), so no launcher sees it
     * exit: the only node but node 0, it is the master; killed mid-run, it is named (id, site, endpoint) by node 0
     * within 10 s, and the run goes on: the registry gives the root to node 0, the last member, which runs it again
     * reusing what was saved, and the answer is still checked.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldNameAKilledRemoteNodeWithinTenSecondsAndGoOn() throws Exception {
        final long detectedMs = killRemoteMasterAndGoOn(List.of());
        assertTrue(detectedMs < 10_000, "named after " + detectedMs + " ms");
    }

    /**
     * As above, with failure detectors that accept 10 minutes of silence, so only the registry's probe can find the
     * death in time: the killed node's UDP port is closed, its host says so (ICMP port unreachable), and the run
     * ends well inside the test's deadline (before the probe, it waited the 10 minutes and timed out). The stops of
     * the tests above show that a stopped node, whose port stays open, is not taken for dead.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldDeclareAKilledRemoteNodeDeadByItsClosedPortLongBeforeItsDetectorWould() throws Exception {
        killRemoteMasterAndGoOn(List.of("--acceptable-heartbeat-pause-ms", "600000"));
    }

    /** Runs node 0 with a remote master, SIGKILLs the master mid-run; returns how long node 0 took to name it dead. */
    private long killRemoteMasterAndGoOn(final List<String> detection) throws Exception {
        final List<String> runArgs = new ArrayList<>(List.of("run", "--nodes", "1", "--await", "1", "--timeout-seconds",
            "100"));
        runArgs.addAll(detection);
        final LauncherProcess run = launch(args(runArgs));
        final String registry = run.awaitMatch(NODE0_ENDPOINT, 60).group(1);
        final List<String> nodeArgs = new ArrayList<>(List.of("node", "--join", registry, "--workers", "1"));
        nodeArgs.addAll(detection);
        final LauncherProcess node = launchers.start(nodeArgs.toArray(new String[0]));
        final Matcher joined = node.awaitMatch(NODE_JOINED, 60);
        final String nodeName = "node " + joined.group(1) + " (site " + joined.group(3) + ", " + joined.group(2) + ")";
        run.awaitLine("nodes joined", 60);
        Thread.sleep(2_000);
        node.process().destroyForcibly(); // SIGKILL
        final long killedNs = System.nanoTime();
        run.awaitLine(nodeName + " was declared dead", 30);
        final long detectedMs = TimeUnit.NANOSECONDS.toMillis(run.timeOfFirstLine(nodeName + " was declared dead") - killedNs);
        System.out.println("PauseAndCrashRunTest: a SIGKILLed remote node was named as dead after " + detectedMs + " ms"
            + (detection.isEmpty() ? "" : " with " + detection));
        final int exit = run.awaitExit(80);
        final String output = run.output();
        System.out.println(output);
        assertFalse(output.contains("divvy run failed"), output);
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains(FIB_ANSWER) && output.contains("PASS"), output);
        assertTrue(output.contains("master: node 0 (this process, node id 0); takeovers: 1"), output);
        assertTrue(output.contains("all 1 local nodes ended with exit code 0"), output);
        return detectedMs;
    }

    private static List<String> args(final List<String> runArgs) {
        final List<String> all = new ArrayList<>(runArgs);
        all.addAll(List.of(FIB_RUN));
        return all;
    }

    private LauncherProcess launch(final List<String> args) throws IOException {
        return launchers.start(args.toArray(new String[0]));
    }
}
