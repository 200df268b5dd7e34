package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.CloseHelper;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.examples.Launcher;
import org.divvy.lifecycle.TerminateFlyweight;
import org.divvy.membership.MembershipMessages;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.results.JobResultFlyweight;
import org.divvy.stealing.StealReplyFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/**
 * Issue 7, finding 3, as it was seen: a process that is no member (it has no cluster secret) opens its
 * own Aeron publications to the nodes of a running {@code divvy run} and sends them well-formed, hand-made
 * frames: a LEAVE in the name of node 1 to the registry (it aborted the run in 1.7 s), a TERMINATE to the
 * child (it ended the child), STEAL_REPLY and JOB_RESULT frames with guessed ids (60 of them made
 * {@code fib} print a wrong answer). Half of them carry a made-up trailer, as a forger that read the
 * protocol would add. The run must end with the right answer and both nodes must count what they dropped.
 */
class ForgedFramesTest {
    /** Divvy's Aeron stream id (AeronTransport.STREAM_ID); a forger reads it from the protocol. */
    private static final int STREAM_ID = 0xD1;
    private static final Pattern NODE0 = Pattern.compile("at (127\\.0\\.0\\.1:\\d+), hosting the registry");
    private static final Pattern NODE1 = Pattern.compile("\\[node 1\\] node id 1 \\((127\\.0\\.0\\.1:\\d+),");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldIgnoreAndCountForgedLeaveTerminateStealReplyAndJobResultFrames() throws Exception {
        // about 1,000 leaves of 8 ms on 2 workers: some 4 s of run, forged at for 2 s of them
        // no secret in its environment: divvy run makes its own, which the forger cannot know
        final LauncherProcess run = start(null, "run", "--nodes", "2", "--workers", "1", "fib", "-n", "30", "--threshold", "16",
            "--simulate-leaf-us", "8000", "--progress-seconds", "0");
        run.awaitLine("nodes joined", 60);
        run.awaitLine("[node 1] node id 1 (", 10);
        final String node0 = run.awaitMatch(NODE0, 1).group(1);
        final String node1 = run.awaitMatch(NODE1, 1).group(1);

        final int[] sent;
        try (Forger forger = new Forger()) {
            sent = forger.forgeFor(TimeUnit.SECONDS.toNanos(2), node0, node1);
        }
        final int exit = run.awaitExit(60);
        final String text = run.output();
        assertEquals(Launcher.EXIT_OK, exit, text);
        assertTrue(text.contains("fib(30) = 832040") && text.contains("PASS"), text);
        assertTrue(text.contains("all 2 local nodes ended with exit code 0"), text);
        assertTrue(sent[0] > 50 && sent[1] > 50, "forged frames went out: " + sent[0] + " to node 0, " + sent[1] + " to node 1");
        // node 1 counts since it joined: every forged frame; node 0 counts over the run: those after it began
        final long atNode1 = unheard(text, "[node 1]   received frames not heard: ");
        assertEquals(sent[1], atNode1, text);
        final long atNode0 = unheard(text, "\n  received frames not heard: ");
        assertTrue(atNode0 > 0 && atNode0 <= sent[0], atNode0 + " of " + sent[0] + ":\n" + text);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldNotLetANodeWithoutTheRunsSecretJoin() throws Exception {
        final LauncherProcess run = start(null, "run", "--nodes", "2", "--workers", "1", "fib", "-n", "30", "--threshold", "16",
            "--simulate-leaf-us", "8000", "--progress-seconds", "0");
        run.awaitLine("nodes joined", 60);
        final String node0 = run.awaitMatch(NODE0, 1).group(1);
        // the uninvited: a secret of its own, and none at all
        final LauncherProcess wrong = start("a-secret-that-is-not-the-runs", "node", "--join", node0, "--workers", "1",
            "--join-timeout-ms", "2000");
        final LauncherProcess none = start(null, "node", "--join", node0, "--workers", "1", "--join-timeout-ms", "2000");
        assertEquals(Launcher.EXIT_FAILED, wrong.awaitExit(30), wrong.output());
        assertTrue(wrong.output().contains("no registry answered at " + node0 + " within 2 s: check --join, that the " +
            "first node is running, and that this node has the run's cluster secret"), wrong.output());
        assertEquals(Launcher.EXIT_FAILED, none.awaitExit(30), none.output());
        assertTrue(none.output().contains("no cluster secret: set the environment variable DIVVY_SECRET"),
            none.output());
        final int exit = run.awaitExit(60);
        final String text = run.output();
        assertEquals(Launcher.EXIT_OK, exit, text);
        assertTrue(text.contains("PASS") && !text.contains("[node 2]"), text);
        assertTrue(unheard(text, "\n  received frames not heard: ") > 0, "its JOINs were counted:\n" + text);
    }

    /** A launcher process with {@code secret} in its environment (none if null). */
    private LauncherProcess start(final String secret, final String... args) throws IOException {
        final ProcessBuilder builder = new ProcessBuilder(LauncherProcess.command(List.of(), List.of(args)));
        builder.environment().remove("DIVVY_SECRET");
        if (secret != null) {
            builder.environment().put("DIVVY_SECRET", secret);
        }
        return launchers.start(builder);
    }

    /** The "N failed authentication" count on the line starting {@code prefix}. */
    private static long unheard(final String text, final String prefix) {
        final int at = text.indexOf(prefix);
        assertTrue(at >= 0, "no line '" + prefix.trim() + "':\n" + text);
        final Matcher m = Pattern.compile("(\\d+) failed authentication, (\\d+) dropped").matcher(text.substring(at));
        assertTrue(m.find(), text);
        assertEquals(0, Long.parseLong(m.group(2)), "nothing unauthentic passed to the frame checks");
        return Long.parseLong(m.group(1));
    }

    /**
     * The attacker: its own embedded driver and plain Aeron publications; no Divvy transport, no secret. It
     * reads the protocol, so its publications look like a node's (the receive guard refuses streams unlike them).
     */
    private static final class Forger implements AutoCloseable {
        private final File dir = new File(IoUtil.tmpDirName(), "divvy-forger-" + UUID.randomUUID());
        private final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
            .aeronDirectoryName(dir.getPath()).threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        private final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        private final Random random = new Random(7);

        /** Forges for {@code durationNs}; returns the frames each node took ([0] node 0, [1] node 1). */
        int[] forgeFor(final long durationNs, final String node0, final String node1) throws InterruptedException {
            final ExclusivePublication to0 = aeron.addExclusivePublication(
                "aeron:udp?endpoint=" + node0 + "|term-length=64k", STREAM_ID);
            final ExclusivePublication to1 = aeron.addExclusivePublication(
                "aeron:udp?endpoint=" + node1 + "|term-length=64k", STREAM_ID);
            final int[] sent = new int[2];
            final long endNs = System.nanoTime() + durationNs;
            long jobId = 0;
            while (System.nanoTime() - endNs < 0) {
                // node 1 "leaves" (the registry is node 0)
                sent[0] += offer(to0, header(MembershipMessages.LEAVE, 1, HeaderFlyweight.HEADER_LENGTH));
                // the master "ends the computation" at node 1
                final int terminate = header(TerminateFlyweight.TYPE, 0, TerminateFlyweight.FRAME_LENGTH);
                buffer.putInt(TerminateFlyweight.EXIT_CODE_OFFSET, 0, HeaderFlyweight.BYTE_ORDER);
                sent[1] += offer(to1, terminate);
                // a "none" reply to guessed steal requests, both ways
                final int reply = header(StealReplyFlyweight.TYPE, 1, StealReplyFlyweight.NONE_FRAME_LENGTH);
                buffer.putLong(StealReplyFlyweight.REQUEST_ID_OFFSET, jobId, HeaderFlyweight.BYTE_ORDER);
                sent[0] += offer(to0, reply);
                sent[1] += offer(to1, reply);
                // wrong results for guessed job ids: a long value of 1
                for (int i = 0; i < 10; i++, jobId++) {
                    final int result = header(JobResultFlyweight.TYPE, 1, JobResultFlyweight.PAYLOAD_OFFSET + 8);
                    buffer.putLong(JobResultFlyweight.OWNER_JOB_ID_OFFSET, jobId, HeaderFlyweight.BYTE_ORDER);
                    buffer.putInt(JobResultFlyweight.OUTCOME_OFFSET, JobResultFlyweight.OUTCOME_VALUE,
                        HeaderFlyweight.BYTE_ORDER);
                    buffer.putLong(JobResultFlyweight.PAYLOAD_OFFSET, 1L, HeaderFlyweight.BYTE_ORDER);
                    sent[0] += offer(to0, result);
                }
                Thread.sleep(20);
            }
            return sent;
        }

        private int header(final int type, final int senderId, final int frameLength) {
            new HeaderFlyweight().wrap(buffer, 0, buffer.capacity()).headerDefaults(type).senderId(senderId).epoch(2)
                .frameLength(frameLength);
            return frameLength;
        }

        /** Offers the frame, half the time with 32 made-up bytes where a trailer goes; 1 if the node took it. */
        private int offer(final ExclusivePublication publication, final int frameLength) {
            int length = frameLength;
            if (random.nextBoolean()) {
                for (int i = 0; i < 32; i++) {
                    buffer.putByte(frameLength + i, (byte) random.nextInt());
                }
                length += 32;
            }
            return publication.offer(buffer, 0, length) > 0 ? 1 : 0;
        }

        @Override
        public void close() {
            CloseHelper.quietCloseAll(aeron, driver);
        }
    }
}
