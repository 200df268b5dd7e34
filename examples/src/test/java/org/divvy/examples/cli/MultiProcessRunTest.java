package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.aeron.CommonContext;
import org.divvy.examples.Launcher;
import org.divvy.testing.Await;
import org.divvy.transport.DriverDirectories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code divvy run} and {@code divvy node} as real JVM processes (the run process starts its child nodes
 * itself). Every process is ended by its handle by {@link Launchers}, the run's children included.
 */
class MultiProcessRunTest {
    @RegisterExtension
    final Launchers launchers = new Launchers();

    /**
     * Without Aeron's {@code --add-opens} (a user's own {@code java} command), node 0 says which option to add, in one
     * line, instead of Agrona's raw {@code IllegalAccessError} and its trace.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNetworkedNodeStartedWithoutAeronsAddOpensShouldNameTheOption() throws Exception {
        final List<String> command = new ArrayList<>(LauncherProcess.command(List.of(),
            List.of("run", "--nodes", "2", "fib", "-n", "20")));
        assertTrue(command.remove(ChildCommand.ADD_OPENS), command.toString());
        final LauncherProcess run = launchers.start(new ProcessBuilder(command));
        final int code = run.awaitExit(45);
        final String output = run.output();
        assertTrue(code != 0, output);
        assertTrue(output.contains("divvy run: cannot start node 0: a networked node needs the JVM option --add-opens "
            + "java.base/jdk.internal.misc=ALL-UNNAMED"), output);
        assertTrue(!output.contains("IllegalAccessError") && !output.contains("\tat "), output);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunFibOnTwoProcessesAndEndTheChild() throws Exception {
        final LauncherProcess run = launchers.start("run", "--nodes", "2", "--workers", "1", "fib", "-n", "24", "--threshold", "10",
            "--progress-seconds", "0");
        final int exit = run.awaitExit(45);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("fib(24) = 46368") && output.contains("PASS"), output);
        assertTrue(output.contains("[node 1] "), output);
        assertTrue(Pattern.compile("master: node 1 \\(pid \\d+, site default, node id 1\\); takeovers: 0\n").matcher(output).find(),
            "node 0 submitted the root, and the registry gave it to the only other node:\n" + output);
        assertTrue(output.contains("all 2 local nodes ended with exit code 0"), output);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunWithEitherStealPolicyAcrossTwoSites() throws Exception {
        for (final String policy : new String[] {"rs", "crs"}) {
            final LauncherProcess run = launchers.start("run", "--nodes", "2", "--sites", "A:1,B:1", "--policy", policy, "--workers",
                "1", "uts", "--spawn-depth", "3", "-d", "6", "--simulate-leaf-us", "200", "--progress-seconds", "0");
            final int exit = run.awaitExit(25);
            final String output = run.output();
            assertEquals(Launcher.EXIT_OK, exit, policy + ":\n" + output);
            assertTrue(output.contains("PASS") && output.contains(policy.toUpperCase()), output);
            assertTrue(output.contains("all 2 local nodes ended with exit code 0"), output);
        }
    }

    /**
     * A child that crashes mid-run (SIGKILLed from outside, not by {@code --kill-at}) is survived: the run names it at
     * once, deletes its Aeron directory, goes on, and the others recover its work, so the answer still comes. The
     * last part needs the runtime's recovery of a dead node's work.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldSurviveAChildKilledMidRunAndDeleteItsAeronDirectory() throws Exception {
        // 1597 leaves of 20 ms on 3 workers: about 10 s, so the kill lands mid-run.
        final LauncherProcess run = launchers.start("run", "--nodes", "3", "--workers", "1", "--timeout-seconds", "120", "fib",
            "-n", "30", "--threshold", "16", "--simulate-leaf-us", "20000", "--progress-seconds", "0");
        run.awaitLine("nodes joined", 40);
        Thread.sleep(1_500);
        final List<ProcessHandle> children = run.process().children().toList();
        assertEquals(2, children.size(), run.output());
        final ProcessHandle victim = children.get(0);
        victim.destroyForcibly();
        final Matcher died = run.awaitMatch(Pattern.compile("divvy run: node (\\d) \\(pid "
            + victim.pid() + ", site default, node id \\d+\\) died with SIGKILL \\(exit 137\\); the run goes on, the other nodes recover "
            + "its work"), 10);
        final Path shm = Path.of(CommonContext.AERON_DIR_PROP_DEFAULT).getParent();
        final String victimDir = Path.of(CommonContext.AERON_DIR_PROP_DEFAULT).getFileName() + "-divvy-"
            + run.process().pid() + "-node" + died.group(1);
        Await.within(Duration.ofSeconds(5)).until(() -> !Files.exists(shm.resolve(victimDir)),
            "the killed child's Aeron directory is deleted at once");
        assertTrue(children.get(1).isAlive() && run.process().isAlive(), "the run goes on:\n" + run.output());
        final int exit = run.awaitExit(150);
        final String output = run.output();
        assertTrue(!output.contains("divvy run failed"), output);
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("fib(30) = 832040") && output.contains("PASS"), output);
        assertTrue(output.contains("all 2 surviving local nodes ended with exit code 0; node " + died.group(1)
            + " died during the run"), output);
    }

    /** Issue 7, finding 5: the launcher and its children SIGKILLed together, so none can clean up. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldLeaveNoDriverDirectoryAfterARunKilledWholeOnceANodeStarts() throws Exception {
        final LauncherProcess run = launchers.start("run", "--nodes", "3", "--workers", "1", "fib",
            "-n", "30", "--threshold", "16", "--simulate-leaf-us", "20000", "--progress-seconds", "0");
        run.awaitLine("nodes joined", 40);
        final long pid = run.process().pid();
        final List<ProcessHandle> processes = new ArrayList<>(run.process().children().toList());
        processes.add(run.process().toHandle());
        processes.forEach(ProcessHandle::destroyForcibly);
        for (final ProcessHandle process : processes) {
            process.onExit().get(10, TimeUnit.SECONDS);
        }
        assertEquals(3, driverDirectoriesOf(pid).size(), "the run's 3 nodes left their directories");
        final LauncherProcess next = launchers.start("run", "fib", "-n", "20", "--progress-seconds", "0");
        assertEquals(Launcher.EXIT_OK, next.awaitExit(30), next.output());
        assertEquals(List.of(), driverDirectoriesOf(pid), "a node start removes a dead run's directories");
    }

    /** {@code divvy-<pid>-<random>} (the launcher's node 0) and {@code aeron-<user>-divvy-<pid>-node<k>} (its children). */
    private static List<Path> driverDirectoriesOf(final long pid) throws IOException {
        final Path shm = DriverDirectories.base().toPath();
        try (var dirs = Files.list(shm)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("divvy-" + pid + "-") ||
                d.getFileName().toString().contains("-divvy-" + pid + "-node")).toList();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldFailClearlyWhenNothingListensAtTheJoinAddress() throws Exception {
        final LauncherProcess node = launchers.start("node", "--join", "127.0.0.1:1", "--join-timeout-ms", "1000", "--workers", "1");
        final int exit = node.awaitExit(20);
        final String output = node.output();
        assertEquals(Launcher.EXIT_FAILED, exit, output);
        assertTrue(output.contains("cannot join 127.0.0.1:1"), output);
    }

    /** Issue 7, finding 5: {@code --join notahost:40000} printed 100 stack traces (1,951 lines) before the right line. */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void shouldSayInOneLineThatAJoinHostCannotBeResolved() throws Exception {
        final LauncherProcess node = launchers.start("node", "--join", "notahost.invalid:40000", "--workers", "1");
        final int exit = node.awaitExit(20);
        final String output = node.output();
        assertEquals(Launcher.EXIT_FAILED, exit, output);
        assertEquals("divvy node: cannot join notahost.invalid:40000: cannot resolve host `notahost.invalid` of "
            + "join=notahost.invalid:40000: check the name (or give an IP address)\n", output);
    }

    /**
     * Issue 7's "same program on 1 and N nodes": the portable app's children throw a JDK exception, a declared
     * and a @Wire user exception (caught by class around sync()) and take a million-long linked list and a
     * cyclic ring. Its report must be the same on one node and on two, where each child is stolen by the
     * other node (jobs given counts them), and on one node in checking mode exactly as on two (an unlisted
     * exception class arrives as RemoteJobException naming it).
     */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldBehaveTheSameOnOneAndTwoNodes() throws Exception {
        final String oneNode = portableReport(launchers.start("run", "--nodes", "1", "--workers", "2", "portable", "--hold-ms", "200",
            "--progress-seconds", "0"));
        final LauncherProcess run = launchers.start("run", "--nodes", "2", "--workers", "1", "portable", "--hold-ms", "1000",
            "--progress-seconds", "0");
        final String twoNodes = portableReport(run);
        assertTrue(run.output().contains("master: node 1 ("), run.output());
        final Matcher given = Pattern.compile("\\[node 1\\] node id 1 since it joined: remote steals: [^;]*; jobs given (\\d+), "
            + "run for peers 0").matcher(run.output());
        assertTrue(given.find(), run.output());
        assertEquals(6, Integer.parseInt(given.group(1)), "each case's child was stolen from the master, node 1, by node 0:\n"
            + run.output());
        final String checking = portableReport(launchers.start("run", "--nodes", "1", "--workers", "2", "--check-codecs=true", "portable",
            "--hold-ms", "200", "--progress-seconds", "0"));

        assertEquals(twoNodes, checking, "checking mode on one node behaves exactly as two nodes");
        final String unlistedLocal = "unlisted: caught Unlisted \"item 7 is not listed\" thrown in failWith";
        final String unlistedRemote = "unlisted: caught RemoteJobException naming Unlisted \"item 7 is not listed\" thrown in failWith";
        assertTrue(oneNode.contains(unlistedLocal), oneNode);
        assertTrue(twoNodes.contains(unlistedRemote), twoNodes);
        assertEquals(oneNode.replace(unlistedLocal, unlistedRemote), twoNodes,
            "every case but the unlisted exception class reports the same on one and two nodes");
    }

    /** The answer line of a portable run that passed. */
    private static String portableReport(final LauncherProcess run) throws InterruptedException {
        final int exit = run.awaitExit(60);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("PASS: 6 cases as expected"), output);
        final java.util.regex.Matcher answer = java.util.regex.Pattern.compile("(?m)^portable \\[[^]]*\\]: (.*)$").matcher(output);
        assertTrue(answer.find(), output);
        return answer.group(1);
    }
}
