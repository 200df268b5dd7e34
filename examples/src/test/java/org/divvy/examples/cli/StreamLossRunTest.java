package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.aeron.driver.Configuration;

/**
 * Issue 7, "nothing is lost, ever", with real processes: a {@code divvy run} of 3 nodes whose failure detector
 * waits a minute ({@code --acceptable-heartbeat-pause-ms 60000}), and a child that is not the master stopped
 * ({@code kill -STOP}) for 3 s longer than Aeron's image liveness timeout (10 s), then continued. Aeron gives up on
 * the streams to and from it meanwhile, and new ones start later in them: messages are lost below Divvy and never
 * sent again. Before, a stop that long closed the stopped node's Aeron client (a dead node for a minute), and once
 * it no longer did, the loss was only logged: a lost result left its parent waiting. Now the loss is handled as a
 * failure: the registry declares the stopped node dead, the others recover its work, and the run gives the right
 * answer well before the failure detector would have said anything. Only processes this test started are
 * signalled, by their pid.
 */
class StreamLossRunTest {
    /** 987 leaves of 20 ms on 3 single-worker nodes: about 7 s of run, so a node stopped 2 s in holds a stolen job. */
    private static final List<String> FIB_RUN = List.of("--workers", "1", "--acceptable-heartbeat-pause-ms", "60000",
        "fib", "-n", "29", "--threshold", "16", "--simulate-leaf-us", "20000", "--progress-seconds", "0");
    private static final String FIB_ANSWER = "fib(29) = 514229";
    /** "the registry gives the root to node 2 (pid 123, site default, node id 1)" */
    private static final Pattern MASTER = Pattern.compile("the registry gives the root to node \\d+ \\(pid (\\d+),");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldHandleMessagesLostInAStopLongerThanAeronsImageTimeoutAsAFailure() throws Exception {
        // Aeron's image liveness timeout, as the nodes' embedded drivers use it (no property sets it here)
        final long imageLivenessMs = TimeUnit.NANOSECONDS.toMillis(Configuration.imageLivenessTimeoutNs());
        final long stopMs = imageLivenessMs + 3_000;
        final LauncherProcess run = launchers.run(FIB_RUN, "--nodes", "3");
        run.awaitLine("nodes joined", 60);
        final long masterPid = Long.parseLong(run.awaitMatch(MASTER, 30).group(1));
        Thread.sleep(2_000);
        final List<ProcessHandle> others = run.process().children().filter(child -> child.pid() != masterPid).toList();
        assertEquals(1, others.size(), run.output());
        final long stoppedPid = others.get(0).pid();
        ProcessStops.stopFor(stoppedPid, stopMs);
        // The failure detector would wait 60 s: only the loss, handled as a failure, ends the run this soon.
        final String output = run.awaitPassed(FIB_ANSWER, 40);
        final Matcher died = Pattern.compile("node \\d+ \\(pid " + stoppedPid + ", site default, node id (\\d+)\\) died")
            .matcher(output);
        assertTrue(died.find(), "the stopped node left the run:\n" + output);
        final String stoppedId = died.group(1);
        assertTrue(Pattern.compile("node " + stoppedId + " \\(site default, [^)]+\\) is declared dead: .* lost in transit")
            .matcher(output).find(), "the registry declared the stopped node dead for lost messages:\n" + output);
        assertTrue(output.contains("after messages to or from this node were lost in transit"),
            "the stopped node said why it was removed:\n" + output);
        assertTrue(output.contains("takeovers: 0"), "the master stayed:\n" + output);
    }
}
