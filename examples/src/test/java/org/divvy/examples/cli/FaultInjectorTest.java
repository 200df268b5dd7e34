package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The events of a {@link FaultSchedule} done at their times, with plain {@code sh} children standing in for nodes. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultInjectorTest {
    private static final List<String> SLEEPER = List.of("sh", "-c", "exec sleep 30");

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private Matcher awaitOutput(final Pattern pattern) {
        return Await.within(Duration.ofSeconds(10)).value(() -> {
            final Matcher matcher = pattern.matcher(out());
            return matcher.find() ? matcher : null;
        }, () -> "a match of '" + pattern + "' in:\n" + out());
    }

    @Test
    void shouldStartAndKillNodesAtTheirTimesAndSaySo() throws Exception {
        final FaultSchedule schedule = FaultSchedule.parse(List.of("1@0.6", "2@0.6"), List.of(), List.of("0.2"),
            SiteLayout.parse("A:1,B:1", 2), 0);
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "B", SLEEPER);
            children.startRun();
            final long startNs = System.nanoTime();
            try (FaultInjector injector = FaultInjector.start(schedule, children,
                (index, count, site) -> children.start(index, count, site, SLEEPER, null, Map.of()), 1, out)) {
                final Matcher started = awaitOutput(Pattern.compile(
                    "divvy run: t=(\\d+\\.\\d\\d) s: started node 2 \\(pid (\\d+), site B\\) as --join-at 0.2 asked; it joins "
                        + "the running computation\n"));
                assertEquals(children.pid(2).orElseThrow(), Long.parseLong(started.group(2)));
                final double startedAt = Double.parseDouble(started.group(1));
                assertTrue(startedAt >= 0.2 && startedAt < 2, out());
                final Matcher killed = awaitOutput(Pattern.compile("divvy run: t=(\\d+\\.\\d\\d) s: killed node 1 \\(pid "
                    + children.pid(1).orElseThrow() + ", site B\\) as --kill-at 1@0.6 asked\n"));
                assertTrue(Double.parseDouble(killed.group(1)) >= 0.6, out());
                awaitOutput(Pattern.compile("t=\\d+\\.\\d\\d s: killed node 2 \\(pid " + children.pid(2).orElseThrow()
                    + ", site B\\) as --kill-at 2@0.6 asked\n"));
                assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs) >= 600);
            }
            awaitOutput(Pattern.compile("node 1 \\(pid \\d+, site B\\) died with SIGKILL \\(exit 137\\); the run goes on"));
            awaitOutput(Pattern.compile("node 2 \\(pid \\d+, site B\\) died with SIGKILL \\(exit 137\\); the run goes on"));
            assertFalse(out().contains("not done"), out());
        }
    }

    @Test
    void shouldCancelTheEventsNotDueWhenTheRunEndsAndSayWhich() throws Exception {
        final FaultSchedule schedule = FaultSchedule.parse(List.of("1@60"), List.of("B@0.1"), List.of("90x2"),
            SiteLayout.parse("A:1,B:2", 3), 0);
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "B", SLEEPER);
            children.start(2, "B", SLEEPER);
            children.startRun();
            try (FaultInjector injector = FaultInjector.start(schedule, children,
                (index, count, site) -> children.start(index, count, site, SLEEPER, null, Map.of()), 1, out)) {
                awaitOutput(Pattern.compile("t=\\d+\\.\\d\\d s: killed node 1 \\(pid \\d+, site B\\), node 2 \\(pid \\d+, site B\\) "
                    + "as --kill-site B@0.1 asked\n"));
            }
            awaitOutput(Pattern.compile("divvy run: the run ended at t=\\d+\\.\\d\\d s, before t=60.00 s: kill node 1 "
                + "\\(--kill-at 1@60\\); t=90.00 s: start nodes 3 to 4 in site B \\(--join-at 90x2\\): not done\n"));
            assertEquals(2, children.size(), "no node started after the end");
        }
    }

    /** A child that says it joined as node id {@code nodeId}, then sleeps. */
    private static List<String> joinedSleeper(final int nodeId) {
        return List.of("sh", "-c", "echo '" + WorkerNode.joinedLine(nodeId, "127.0.0.1:1", "B", 1, "127.0.0.1:2")
            + "'; exec sleep 30");
    }

    /**
     * {@code --kill-at master@S} kills the child the registry gives the root to: the lowest node id among the children
     * alive and not killed yet, whatever its launch index; with none left, node 0 is the master and nothing is killed.
     */
    @Test
    void shouldKillTheChildWithTheLowestNodeIdAsTheMaster() throws Exception {
        final FaultSchedule schedule = FaultSchedule.parse(List.of("master@0.2", "master@0.4", "master@0.6"), List.of(),
            List.of(), SiteLayout.parse("A:1,B:2", 3), 0);
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "B", joinedSleeper(2));
            children.start(2, "B", joinedSleeper(1));
            children.awaitNodeIds(10_000);
            assertEquals("node 2 (pid " + children.pid(2).orElseThrow() + ", site B, node id 1)",
                children.expectedMaster().orElseThrow());
            assertEquals(children.expectedMaster(), children.nameOfNodeId(1));
            children.startRun();
            try (FaultInjector injector = FaultInjector.start(schedule, children,
                (index, count, site) -> children.start(index, count, site, SLEEPER, null, Map.of()), 1, out)) {
                awaitOutput(Pattern.compile("t=\\d+\\.\\d\\d s: killed the master, node 2 \\(pid \\d+, site B, node id 1\\), "
                    + "as --kill-at master@0.2 asked\n"));
                awaitOutput(Pattern.compile("t=\\d+\\.\\d\\d s: killed the master, node 1 \\(pid \\d+, site B, node id 2\\), "
                    + "as --kill-at master@0.4 asked\n"));
                awaitOutput(Pattern.compile("t=\\d+\\.\\d\\d s: --kill-at master@0.6: no joined local child is alive, so node 0 "
                    + "is \\(or will be\\) the master; nothing to stop\n"));
            }
            assertEquals(java.util.Optional.empty(), children.expectedMaster());
        }
    }

    @Test
    void shouldDoNothingWithoutFaults() {
        try (ChildNodes children = new ChildNodes(out);
            FaultInjector injector = FaultInjector.start(FaultSchedule.NONE, children, (index, count, site) -> {
                throw new AssertionError("no node to start");
            }, 1, out)) {
            assertEquals(0, children.size());
        }
        assertEquals("", out());
    }

    /** A process of several nodes that say they joined as {@code nodeIds}, in order, then sleep. */
    private static List<String> joinedSleepers(final String site, final int... nodeIds) {
        final StringBuilder script = new StringBuilder();
        for (final int id : nodeIds) {
            script.append("echo '").append(WorkerNode.joinedLine(id, "127.0.0.1:" + id, site, 1, "127.0.0.1:2"))
                .append("'; ");
        }
        return List.of("sh", "-c", script + "exec sleep 30");
    }

    /**
     * With several nodes in a process, {@code --kill-at K@S}, {@code --leave-at K@S} and {@code master@S} stop the
     * process, so all its nodes, and the line names every one of them, the one asked for first.
     */
    @Test
    void shouldNameEveryNodeOfTheProcessItStops() throws Exception {
        final FaultSchedule schedule = FaultSchedule.parse(List.of("2@0.2", "master@0.6"), List.of(), List.of("5@0.4"),
            List.of(), List.of(), SiteLayout.parse("A:1,B:3,C:2,D:2", 8), 0);
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, 3, "B", joinedSleepers("B", 11, 12, 13), null, Map.of());
            children.start(4, 2, "C", joinedSleepers("C", 14, 15), null, Map.of());
            children.start(6, 2, "D", joinedSleepers("D", 16, 17), null, Map.of());
            children.awaitNodeIds(10_000);
            final long b = children.pid(1).orElseThrow();
            final long c = children.pid(4).orElseThrow();
            final long d = children.pid(6).orElseThrow();
            children.startRun();
            try (FaultInjector injector = FaultInjector.start(schedule, children,
                (index, count, site) -> children.start(index, count, site, SLEEPER, null, Map.of()), 3, out)) {
                awaitOutput(Pattern.compile(Pattern.quote("killed node 2 (pid " + b + ", site B, node id 12), node 1 (pid "
                    + b + ", site B, node id 11), node 3 (pid " + b + ", site B, node id 13) as --kill-at 2@0.2 asked") + "\n"));
                awaitOutput(Pattern.compile(Pattern.quote("asked to leave (SIGTERM) node 5 (pid " + c + ", site C, node id "
                    + "15), node 4 (pid " + c + ", site C, node id 14) as --leave-at 5@0.4 asked") + "\n"));
                awaitOutput(Pattern.compile(Pattern.quote("killed the master, node 6 (pid " + d + ", site D, node id 16), "
                    + "node 7 (pid " + d + ", site D, node id 17), as --kill-at master@0.6 asked") + "\n"));
            }
            assertEquals(java.util.Optional.empty(), children.expectedMaster());
        }
    }

    /** Consecutive nodes of one site share a process, K at most; a new site starts a new process. */
    @Test
    void shouldSplitNodesIntoProcessesOfOneSite() {
        final SiteLayout layout = SiteLayout.parse("A:3,B:5,C:1", 9);
        assertEquals(List.of("1+2", "3+3", "6+2", "8+1"), FaultInjector.NodeStarter.processes(1, 9, 3, layout::siteOf)
            .stream().map(p -> p[0] + "+" + p[1]).toList());
        assertEquals(List.of("9+2", "11+1"), FaultInjector.NodeStarter.processes(9, 12, 2, k -> "E").stream()
            .map(p -> p[0] + "+" + p[1]).toList());
    }
}
