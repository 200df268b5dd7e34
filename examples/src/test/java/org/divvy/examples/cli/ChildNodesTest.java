package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The supervision of child processes, with plain {@code sh} children standing in for node JVMs. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChildNodesTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);

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
}
