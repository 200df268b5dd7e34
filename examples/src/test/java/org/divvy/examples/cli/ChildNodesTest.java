package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervision of child processes, with plain {@code sh} children standing in for node JVMs: a death before the
 * run is an error, one during the run is survived and reported, and a late joiner that never joined is stopped.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChildNodesTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    /** A child that prints {@code lines}, then exits 0 once {@link #endNodes()} was called. */
    private List<String> nodeUntilEnd(final String lines) {
        return List.of("sh", "-c", lines + "; while [ ! -e '" + dir.resolve("end") + "' ]; do sleep 0.05; done; exit 0");
    }

    /** What the master's TERMINATE is to the children of {@link #nodeUntilEnd}. */
    private void endNodes() throws Exception {
        Files.createFile(dir.resolve("end"));
    }

    private void awaitOutput(final String text) {
        Await.within(Duration.ofSeconds(10)).until(() -> out().contains(text), () -> "'" + text + "' in:\n" + out());
    }

    @Test
    void shouldNameAChildKilledBeforeTheEnd() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", List.of("sh", "-c", "echo ready; exec sleep 30"));
            children.start(2, "B", List.of("sh", "-c", "exec sleep 30"));
            final long pid = children.pid(2).orElseThrow();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            final String death = children.death().get(10, TimeUnit.SECONDS);
            assertEquals("local node 2 (pid " + pid + ", site B) died with exit code 137 (killed by signal 9, SIGKILL) "
                + "before the computation ended", death);
            assertEquals(death, assertThrows(DivvyException.class, children::startRun).getMessage(),
                "a node that died before the run started fails it");
            assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("[node 1] ready"));
        }
    }

    @Test
    void shouldReportChildrenThatExitWithAnotherCode() {
        try (ChildNodes children = new ChildNodes(out)) {
            children.expectExits();
            children.start(1, "A", List.of("sh", "-c", "exit 0"));
            children.start(2, "A", List.of("sh", "-c", "exit 3"));
            final List<String> problems = children.awaitExits(0, 10_000);
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).startsWith("local node 2 (pid ") && problems.get(0).endsWith("exited with exit code 3, "
                + "expected 0"), problems.get(0));
            assertFalse(children.death().isDone(), "expected exits are no deaths");
        }
    }

    @Test
    void shouldEndChildrenStillAliveOnClose() {
        final ProcessHandle child;
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", List.of("sh", "-c", "exec sleep 30"));
            child = ProcessHandle.of(children.pid(1).orElseThrow()).orElseThrow();
        }
        assertFalse(child.isAlive());
    }

    @Test
    void shouldSurviveAChildThatDiesDuringTheRunAndLeaveItOutOfTheExitCodes() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", nodeUntilEnd("true"));
            final Path aeronDir = Files.createDirectories(dir.resolve("aeron-node2/sub"));
            children.start(2, "B", List.of("sh", "-c", "exec sleep 30"), aeronDir.getParent(), java.util.Map.of());
            children.startRun();
            final long pid = children.pid(2).orElseThrow();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // a crash: not asked for by the run
            awaitOutput("divvy run: node 2 (pid " + pid + ", site B) died with SIGKILL (exit 137); the run goes on, the "
                + "other nodes recover its work");
            assertFalse(children.death().isDone(), "a death during the run is no error");
            Await.within(Duration.ofSeconds(5)).until(() -> !Files.exists(aeronDir.getParent()),
                "the dead node's Aeron directory is deleted at once");
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
            assertEquals("all 2 surviving local nodes ended with exit code 0; node 2 died during the run",
                children.summary(0));
        }
    }

    @Test
    void shouldKillChildrenOnPurposeByIndexOrSiteWithoutCountingThemAtTheEnd() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", nodeUntilEnd("true"));
            children.start(2, "B", List.of("sh", "-c", "exec sleep 30"));
            children.start(3, "B", List.of("sh", "-c", "exec sleep 30"));
            children.start(4, "C", List.of("sh", "-c", "exec sleep 30"));
            children.startRun();
            final long pid2 = children.pid(2).orElseThrow();
            final List<List<String>> announced = new java.util.ArrayList<>();
            assertEquals(Optional.of("node 2 (pid " + pid2 + ", site B)"), children.kill(2, announced::add));
            assertEquals(List.of("node 3 (pid " + children.pid(3).orElseThrow() + ", site B)"),
                children.killSite("B", announced::add), "node 2 is killed already");
            assertEquals(Optional.empty(), children.kill(7, announced::add), "no such node");
            assertEquals(Optional.empty(), children.kill(2, announced::add), "killed already");
            assertEquals(List.of(List.of("node 2 (pid " + pid2 + ", site B)"), List.of("node 3 (pid "
                + children.pid(3).orElseThrow() + ", site B)")), announced, "each kill announced once, before it");
            // at once, before the exits were seen: the kills still count as deaths during the run
            children.killSite("C", announced::add);
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
            assertEquals("all 2 surviving local nodes ended with exit code 0; nodes 2, 3 and 4 died during the run",
                children.summary(0));
            awaitOutput("node 4 (pid " + children.pid(4).orElseThrow() + ", site C) died with SIGKILL (exit 137)");
        }
    }

    /**
     * A leave is a SIGTERM that keeps the child's output: what it prints while it leaves (a node says what it handed
     * over) reaches ours, and its exit counts as a leave, not a death.
     */
    @Test
    void shouldAskAChildToLeaveWithSigtermAndKeepWhatItPrintsWhileLeaving() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", nodeUntilEnd("true"));
            // sh runs the trap once its foreground command ends: sleep in the background and wait, which a signal cuts
            children.start(2, "A", List.of("sh", "-c", "trap 'echo handed 3 results over; exit 143' TERM; "
                + "echo ready; sleep 30 & wait"));
            awaitOutput("[node 2] ready");
            children.startRun();
            final long pid2 = children.pid(2).orElseThrow();
            final List<List<String>> announced = new java.util.ArrayList<>();
            assertEquals(Optional.of("node 2 (pid " + pid2 + ", site A)"),
                children.stop(FaultSchedule.Stop.LEAVE, 2, announced::add));
            assertEquals(Optional.empty(), children.stop(FaultSchedule.Stop.LEAVE, 2, announced::add), "asked already");
            awaitOutput("[node 2] handed 3 results over");
            awaitOutput("node 2 (pid " + pid2 + ", site A) left (SIGTERM (exit 143)); the run goes on");
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
            assertEquals("all 2 remaining local nodes ended with exit code 0; node 2 left during the run", children.summary(0));
        }
    }

    /** A child that prints it joined as node id {@code id}, then ends with {@code onSigterm}'s exit code on SIGTERM. */
    private static List<String> joinedNode(final int id, final int onSigterm) {
        return List.of("sh", "-c", "trap 'exit " + onSigterm + "' TERM; echo '" + WorkerNode.joinedLine(id, "127.0.0.1:" + id,
            "A", 1, "127.0.0.1:1") + "'; sleep 30 & wait");
    }

    /**
     * A process of several nodes ({@code divvy run --nodes-per-process}): each node is named by its own index and the
     * node id of the process's joined lines in order; killing one of them kills the process, so all of them, each
     * announced (the one asked for first) and each told to the registry as dead.
     */
    @Test
    void shouldTreatTheNodesOfOneProcessAsOneFateNamedOneByOne() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            final List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            children.onExitDuringRun((id, afterLeaving) -> told.add(id + (afterLeaving ? " left" : " died")));
            // joined, as node id 20: awaitNodeIds need not wait for it
            children.start(1, "A", nodeUntilEnd("echo '" + WorkerNode.joinedLine(20, "127.0.0.1:20", "A", 1, "127.0.0.1:1")
                + "'"));
            children.start(2, 3, "B", List.of("sh", "-c", "echo '" + WorkerNode.joinedLine(7, "127.0.0.1:7", "B", 1,
                "127.0.0.1:1") + "'; echo '" + WorkerNode.joinedLine(5, "127.0.0.1:5", "B", 1, "127.0.0.1:1") + "'; echo '"
                + WorkerNode.joinedLine(9, "127.0.0.1:9", "B", 1, "127.0.0.1:1") + "'; exec sleep 30"), null,
                java.util.Map.of());
            awaitOutput("[nodes 2-4] node id 9");
            children.awaitNodeIds(10_000);
            final long pid = children.pid(2).orElseThrow();
            assertEquals(Optional.of(pid), children.pid(4), "one process");
            assertEquals(Optional.of("node 3 (pid " + pid + ", site B, node id 5)"), children.nameOfNodeId(5));
            assertEquals(Optional.of("node 3 (pid " + pid + ", site B, node id 5)"), children.expectedMaster(),
                "the lowest node id");
            children.startRun();
            final List<List<String>> announced = new java.util.ArrayList<>();
            assertEquals(Optional.of("node 3 (pid " + pid + ", site B, node id 5)"),
                children.killExpectedMaster(announced::add));
            assertEquals(List.of(List.of("node 3 (pid " + pid + ", site B, node id 5)",
                "node 2 (pid " + pid + ", site B, node id 7)", "node 4 (pid " + pid + ", site B, node id 9)")), announced,
                "the master first, then the nodes that share its process");
            assertEquals(List.of(), children.killSite("B", announced::add), "killed already");
            Await.within(Duration.ofSeconds(10)).until(() -> told.size() == 3, () -> "told " + told);
            assertEquals(java.util.Set.of("7 died", "5 died", "9 died"), java.util.Set.copyOf(told));
            awaitOutput("node 4 (pid " + pid + ", site B, node id 9) died with SIGKILL (exit 137)");
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
            assertEquals("all 2 surviving local nodes ended with exit code 0; nodes 2, 3 and 4 died during the run",
                children.summary(0));
        }
    }

    /**
     * A node of a process of several that ends alone while the run goes on (the registry declared it dead) is a death
     * the run survives, reported by its own end line and told to the registry; its mates live on and are judged by
     * their own end lines at the end, not by the process's exit code (the highest of its nodes').
     */
    @Test
    void shouldSurviveANodeThatEndsAloneInsideASharedProcessAndJudgeItsMatesByTheirOwnCodes() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            final List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            children.onExitDuringRun((id, afterLeaving) -> told.add(id + (afterLeaving ? " left" : " died")));
            // joined, as node id 20: awaitNodeIds need not wait for it
            children.start(1, "A", nodeUntilEnd("echo '" + WorkerNode.joinedLine(20, "127.0.0.1:20", "A", 1, "127.0.0.1:1")
                + "'"));
            final String joined = "echo '" + WorkerNode.joinedLine(7, "127.0.0.1:7", "B", 1, "127.0.0.1:1") + "'; echo '"
                + WorkerNode.joinedLine(5, "127.0.0.1:5", "B", 1, "127.0.0.1:1") + "'; echo '"
                + WorkerNode.joinedLine(9, "127.0.0.1:9", "B", 1, "127.0.0.1:1") + "'";
            children.start(2, 3, "B", List.of("sh", "-c", joined + "; while [ ! -e '" + dir.resolve("drop")
                + "' ]; do sleep 0.05; done; echo '" + WorkerNode.endedLine(5, 1) + "'; while [ ! -e '" + dir.resolve("end")
                + "' ]; do sleep 0.05; done; echo '" + WorkerNode.endedLine(7, 0) + "'; echo '" + WorkerNode.endedLine(9, 0)
                + "'; exit 1"), null, java.util.Map.of());
            children.awaitNodeIds(10_000);
            final long pid = children.pid(2).orElseThrow();
            children.startRun();
            Files.createFile(dir.resolve("drop"));
            awaitOutput("divvy run: node 3 (pid " + pid + ", site B, node id 5) died with exit code 1; the run goes on");
            Await.within(Duration.ofSeconds(10)).until(() -> told.size() == 1, () -> "told " + told);
            assertEquals(List.of("5 died"), told);
            assertEquals(Optional.of("node 2 (pid " + pid + ", site B, node id 7)"), children.expectedMaster(),
                "the ended node is no master any more");
            assertEquals(Optional.empty(), children.stop(FaultSchedule.Stop.KILL, 3, names -> { }), "ended already");
            assertTrue(children.pid(2).flatMap(ProcessHandle::of).orElseThrow().isAlive(), "its mates live on");
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
            assertEquals("all 4 surviving local nodes ended with exit code 0; node 3 died during the run",
                children.summary(0));
            assertEquals(List.of("5 died"), told, "the process's exit tells nothing more");
        }
    }

    /** The line a node of a process of several ends with, and what it gives. */
    @Test
    void shouldReadTheEndLineOfANode() {
        assertEquals("node id 5 ended: exit 1", WorkerNode.endedLine(5, 1));
        assertEquals(List.of(5, 1), java.util.Arrays.stream(WorkerNode.endedNodeAndCode(WorkerNode.endedLine(5, 1)))
            .boxed().toList());
        assertEquals(null, WorkerNode.endedNodeAndCode("node id 5: the computation ended with exit code 0"));
    }

    @Test
    void shouldTellTheRegistryALeaverLeftButALeaverThatCrashedDied() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            final List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            children.onExitDuringRun((id, afterLeaving) -> told.add(id + (afterLeaving ? " left" : " died")));
            children.start(1, "A", nodeUntilEnd("true"));
            children.start(2, "A", joinedNode(7, 143)); // leaves as a node's exit hook does: the JVM ends with 143
            children.start(3, "A", joinedNode(8, 1)); // crashes while leaving
            awaitOutput("[node 2] node id 7");
            awaitOutput("[node 3] node id 8");
            children.startRun();
            children.stop(FaultSchedule.Stop.LEAVE, 2, names -> { });
            children.stop(FaultSchedule.Stop.LEAVE, 3, names -> { });
            Await.within(Duration.ofSeconds(10)).until(() -> told.size() == 2, () -> "told " + told);
            assertEquals(java.util.Set.of("7 left", "8 died"), java.util.Set.copyOf(told));
            awaitOutput("node 2 (pid " + children.pid(2).orElseThrow() + ", site A, node id 7) left (SIGTERM (exit 143))");
            awaitOutput("node 3 (pid " + children.pid(3).orElseThrow() + ", site A, node id 8) died with exit code 1");
            children.expectExits();
            endNodes();
            assertEquals(List.of(), children.awaitExits(0, 10_000));
        }
    }

    @Test
    void shouldStopALateJoinerThatHadNotJoinedWhenTheComputationEnded() throws Exception {
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", nodeUntilEnd("true"));
            children.startRun();
            children.start(2, "A", nodeUntilEnd("echo '" + WorkerNode.joinedLine(5, "127.0.0.1:2", "A", 1, "127.0.0.1:1")
                + "'"));
            children.start(3, "A", List.of("sh", "-c", "exec sleep 30")); // never joins: never hears the end
            children.start(4, "A", nodeUntilEnd("true")); // its joined line not seen, but it hears the end
            awaitOutput("[node 2] node id 5 (127.0.0.1:2, site A, 1 workers) joined 127.0.0.1:1");
            children.expectExits();
            endNodes();
            final long startNs = System.nanoTime();
            assertEquals(List.of(), children.awaitExits(0, 20_000));
            final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            assertTrue(waitedMs >= ChildNodes.LATE_JOINER_GRACE_MS - 100 && waitedMs < 10_000, waitedMs + " ms");
            assertFalse(ProcessHandle.of(children.pid(3).orElseThrow()).map(ProcessHandle::isAlive).orElse(false));
            assertTrue(out().contains("divvy run: node 3 (pid " + children.pid(3).orElseThrow() + ", site A), started by --join-at, "
                + "had not joined when the computation ended; stopped it"), out());
            assertFalse(out().contains("node 4 (pid " + children.pid(4).orElseThrow() + ", site A), started by"), out());
            assertEquals("all 4 local nodes ended with exit code 0; node 3 had not joined when the computation ended",
                children.summary(0));
        }
    }

    @Test
    void shouldNameAJoinedChildWithTheRuntimesNodeIdToo() throws Exception {
        assertEquals(java.util.OptionalInt.of(5), WorkerNode.joinedNodeId(WorkerNode.joinedLine(5, "127.0.0.1:2", "A", 1,
            "127.0.0.1:1")));
        assertEquals(java.util.OptionalInt.empty(), WorkerNode.joinedNodeId("node id 5: the computation ended with exit code 0"));
        try (ChildNodes children = new ChildNodes(out)) {
            children.start(1, "A", nodeUntilEnd("echo '" + WorkerNode.joinedLine(5, "127.0.0.1:2", "A", 1, "127.0.0.1:1")
                + "'"));
            children.startRun();
            awaitOutput("[node 1] node id 5 (");
            Thread.sleep(100); // the listener sees a line after it was printed
            final long pid = children.pid(1).orElseThrow();
            assertEquals(Optional.of("node 1 (pid " + pid + ", site A, node id 5)"), children.kill(1, names -> { }),
                "the index the launcher uses, and the id the runtime's logs use");
            awaitOutput("divvy run: node 1 (pid " + pid + ", site A, node id 5) died with SIGKILL (exit 137)");
        }
    }

    @Test
    void shouldDescribeDeathsShortly() {
        assertEquals("SIGKILL (exit 137)", ChildNodes.describeDeath(137));
        assertEquals("signal 7 (exit 135)", ChildNodes.describeDeath(135));
        assertEquals("exit code 1", ChildNodes.describeDeath(1));
    }
}
