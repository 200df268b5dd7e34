package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.divvy.ClusterSecret;
import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code divvy run --join} a {@code divvy registry}, as real processes sharing a secret in their environment: node 0
 * submits the root to the standalone registry, which gives it to a child as to any member. If node 0 (the
 * submitter) dies, the master's value has nobody to go to: the registry prints it, and the master ends the
 * computation, so its nodes exit by themselves. Every process is ended by its handle at the end.
 */
class StandaloneRegistryRunTest {
    /** A silence the failure detectors accept: short, so node 0's death is declared about 2.6 s after it. */
    private static final List<String> DETECTION = List.of("--acceptable-heartbeat-pause-ms", "2000");
    private static final Pattern LISTENING = Pattern.compile("divvy registry listening at (\\S+)\n");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    private final String secret = ClusterSecret.generate().text();

    private LauncherProcess start(final List<String> args) throws IOException {
        final ProcessBuilder builder = new ProcessBuilder(LauncherProcess.command(List.of(), args));
        builder.environment().put(ClusterSecret.ENVIRONMENT_VARIABLE, secret);
        return launchers.start(builder);
    }

    /** A standalone registry; returns it once it listens, with its address. */
    private LauncherProcess registry() throws Exception {
        final List<String> args = new ArrayList<>(List.of("registry", "--duration-seconds", "120"));
        args.addAll(DETECTION);
        return start(args);
    }

    private LauncherProcess runJoining(final String registry, final String... appArgs) throws IOException {
        final List<String> args = new ArrayList<>(List.of("run", "--join", registry, "--nodes", "3", "--workers", "1",
            "--timeout-seconds", "60"));
        args.addAll(DETECTION);
        args.addAll(List.of(appArgs));
        args.addAll(List.of("--progress-seconds", "0"));
        return start(args);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldSubmitTheRootToAStandaloneRegistry() throws Exception {
        final LauncherProcess registry = registry();
        final String address = registry.awaitMatch(LISTENING, 30).group(1);
        final LauncherProcess run = runJoining(address, "fib", "-n", "24", "--threshold", "10");
        final int exit = run.awaitExit(60);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("registry " + address), output);
        assertTrue(output.contains("fib(24) = 46368") && output.contains("PASS"), output);
        assertTrue(output.contains(", unless nodes of other runs joined the registry at " + address + "; if it dies, to the next"),
            output);
        assertTrue(Pattern.compile("\nmaster: node [12] \\(pid \\d+, site default, node id \\d+\\); takeovers: 0\n").matcher(output)
            .find(), output);
        assertTrue(output.contains("divvy run: all 3 local nodes ended with exit code 0"), output);
        assertFalse(registry.output().contains("divvy registry: run "), "node 0 took the value:\n" + registry.output());
    }

    /**
     * Node 0 SIGKILLed 1 s into a run of about 10 s: its children, now orphans of no launcher, go on; the master's
     * value reaches the registry after node 0 was declared dead, so the registry prints it, and the master ends the
     * computation: both children exit (their output went through node 0, so only their exits are seen).
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldPrintTheValueOfARunWhoseSubmitterDiedAndEndTheComputation() throws Exception {
        final LauncherProcess registry = registry();
        final String address = registry.awaitMatch(LISTENING, 30).group(1);
        // 987 leaves of 20 ms on 2 single-worker children: about 10 s
        final LauncherProcess run = runJoining(address, "fib", "-n", "29", "--threshold", "16", "--simulate-leaf-us", "20000");
        run.awaitLine("divvy run: the registry gives the root to node", 60);
        final List<ProcessHandle> children = run.process().children().toList();
        try {
            assertEquals(2, children.size(), run.output());
            Thread.sleep(1_000);
            run.process().destroyForcibly(); // SIGKILL node 0: its children are no launcher's now
            registry.awaitMatch(Pattern.compile("divvy registry: run \\d+\\.\\d+ of `org\\.divvy\\.examples\\.fib\\.Fib#fib`: node "
                + "\\d+ computed 514229\n"), 60);
            for (final ProcessHandle child : children) {
                final ProcessHandle exited = child.onExit().get(30, TimeUnit.SECONDS);
                assertFalse(exited.isAlive(), "the master ended the computation; both children exit:\n" + run.output());
            }
        } finally {
            children.forEach(ProcessHandle::destroyForcibly); // no launcher's descendants any more: Launchers cannot see them
        }
    }
}
