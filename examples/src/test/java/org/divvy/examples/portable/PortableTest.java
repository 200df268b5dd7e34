package org.divvy.examples.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.examples.Problem;
import org.divvy.examples.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The portable app on one node in this JVM, without and with checking mode: checking mode sends every
 * job and result through the codecs, so one node reports what two would (an unlisted exception class as
 * RemoteJobException), and a million-long linked list goes through them on workers with a 256 KiB stack.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PortableTest {
    private static List<String> run(final NodeConfig config, final int cells, final int ring) {
        final PortableApp app = new PortableApp();
        app.length = cells;
        app.ring = ring;
        app.holdMs = 50;
        final Problem<String> problem = app.prepare();
        try (DivvyNode node = DivvyNode.start(config)) {
            final String answer = node.run(problem.root()).value();
            assertEquals(Verdict.PASS, problem.check(answer).verdict(), answer);
            return List.of(answer.split("; "));
        }
    }

    @Test
    void shouldCatchEveryExceptionByClassOnOneNode() {
        assertEquals(PortableApp.expected(1000, 100), run(NodeConfig.builder().workers(2).build(), 1000, 100));
    }

    @Test
    void shouldReportAsAStolenJobWouldInCheckingMode() {
        final List<String> expected = new ArrayList<>(PortableApp.expected(1000, 100));
        expected.set(Portable.FAILURES.indexOf("unlisted"), PortableApp.UNLISTED_REMOTE);
        assertEquals(expected, run(NodeConfig.builder().workers(2).checkCodecs(true).build(), 1000, 100));
    }

    @Test
    void shouldSendAMillionLongListThroughTheCodecsOnSmallWorkerStacks() {
        final List<String> expected = new ArrayList<>(PortableApp.expected(1_000_000, 100_000));
        expected.set(Portable.FAILURES.indexOf("unlisted"), PortableApp.UNLISTED_REMOTE);
        assertEquals(expected, run(NodeConfig.builder().workers(2).checkCodecs(true).workerStackSizeBytes(256 * 1024).build(),
            1_000_000, 100_000));
    }
}
