package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.examples.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 7, finding 1: big messages. {@code divvy run} of mergesort as real processes over real UDP, with
 * a root, jobs and results of tens to two hundred megabytes (the 50M-int run submits a 200 MB root, which the
 * registry sends to the master, and gives away halves of 100 MB), on 2 and 4 nodes of one worker each; a job
 * above {@code maxMessageBytes} stays on its node and the answer is still right; a result above it fails the run
 * with an error naming the setting, instead of a hang.
 *
 * <p>The heaviest tests of the build. Memory: the run process (node 0, which holds the array, its copy for the
 * check, the root as it was sent, the root as the registry received and keeps it, and the value as it came back) gets {@code -Xmx2g},
 * {@code -Xmx3g} for 50M ints; each child {@code -Xmx1g}, {@code -Xmx2g} for 50M ints (the master holds the root
 * as it arrived, its decoded array, the halves and the sorted result; a thief a 100 MB job as its reassembled
 * frame, its decoded array, the halves and the sorted result). The collectors are the defaults for these heaps, as
 * {@code divvy run} gives its children and {@code bin/divvy} node 0 ({@link NodeJvmOptions}: serial up to 1 GiB,
 * G1 above). Every process is ended by its handle afterwards.
 */
class BigMessagesMultiProcessTest {
    /** The agent's longest cycle and, when measured, its own CPU time (printed, not asserted: no timed assertions). */
    private static final Pattern LONGEST_CYCLE = Pattern.compile("longest cycle ([0-9.]+) ms( \\([^)]*\\), most own CPU in one " +
        "cycle [0-9.]+ ms \\([^)]*\\))?");
    private static final Heaps SMALL_HEAPS = new Heaps("-Xmx2g", "-Xmx1g");
    private static final Heaps LARGE_HEAPS = new Heaps("-Xmx3g", "-Xmx2g");

    @RegisterExtension
    final Launchers launchers = new Launchers();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldSortTenMillionIntsOnTwoAndOnFourNodes() throws Exception {
        assertSorted(2, 10_000_000, SMALL_HEAPS);
        assertSorted(4, 10_000_000, SMALL_HEAPS);
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void shouldSortFiftyMillionIntsOnTwoAndOnFourNodes() throws Exception {
        assertSorted(2, 50_000_000, LARGE_HEAPS);
        // before receiver windows were capped (ReceiverWindow) this failed or hung in one run of three (10M too):
        // a peer's stream lost its last window whole and was never repaired
        assertSorted(4, 50_000_000, LARGE_HEAPS);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aJobLargerThanMaxMessageBytesShouldRunOnItsNodeAndTheAnswerShouldStillBeRight() throws Exception {
        // the portable app's root is small (two ints), but its child that sums a million-long list is some 10 MB
        // encoded, above the 1 MiB bound: it stays on the master; the smaller jobs travel (mergesort's root would be
        // as large as its input, too large to go to a master at all)
        final LauncherProcess run = run(List.of("--nodes", "2", "--max-message-bytes", "1048576", "--timeout-seconds", "60"),
            SMALL_HEAPS, "portable");
        final int exit = run.awaitExit(75);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("PASS: 6 cases as expected"), output);
        assertTrue(output.contains("job `sum` stays on this node") && output.contains("1048576"), output);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aResultLargerThanMaxMessageBytesShouldFailTheRunWithTheSettingToRaise(@TempDir final Path dir)
        throws Exception {
        // quadrants of 320x240 pixels: arguments of a few hundred bytes, results of 300 KB, above a 64 KiB bound
        final LauncherProcess run = run(List.of("--nodes", "2", "--max-message-bytes", "65536"), SMALL_HEAPS, "raytracer",
            "--width", "640",
            "--height", "480", "--samples", "1", "--out", dir.resolve("image.png").toString());
        final int exit = run.awaitExit(75);
        final String output = run.output();
        assertNotEquals(Launcher.EXIT_OK, exit, output);
        assertTrue(output.contains("maxMessageBytes=65536") && output.contains("--max-message-bytes"), output);
    }

    private void assertSorted(final int nodes, final int size, final Heaps heaps) throws Exception {
        final LauncherProcess run = run(List.of("--nodes", String.valueOf(nodes)), heaps, "mergesort", "--size",
            String.valueOf(size));
        final int exit = run.awaitExit(size / 1_000_000 * 2 + 40);
        final String output = run.output();
        assertEquals(Launcher.EXIT_OK, exit, nodes + " nodes, " + size + " ints:\n" + output);
        assertTrue(output.contains("PASS: equals Arrays.sort of a copy (" + size + " elements)"), output);
        assertTrue(output.contains("all " + nodes + " local nodes ended with exit code 0"), output);
        // halves of 20 to 100 MB travel: none stays on its node for being too large (they did above 16 MiB)
        assertFalse(output.contains("stays on this node"), output);
        final Matcher cycle = LONGEST_CYCLE.matcher(output);
        while (cycle.find()) {
            System.out.println("mergesort " + size + " on " + nodes + " nodes: longest agent cycle " + cycle.group(1) + " ms" +
                (cycle.group(2) == null ? "" : cycle.group(2)));
        }
    }

    /** {@code divvy run RUN_OPTIONS --workers 1 APP APP_OPTIONS} as a real process with {@code heaps}. */
    private LauncherProcess run(final List<String> runOptions, final Heaps heaps, final String... app) throws IOException {
        final List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(runOptions);
        args.addAll(List.of("--workers", "1", "--jvm-opt=" + heaps.child()));
        args.addAll(List.of(app));
        args.addAll(List.of("--progress-seconds", "0"));
        // node 0's options as bin/divvy makes them from DIVVY_JAVA_OPTS=-Xmx... (NodeJvmOptionsTest shows the same rule)
        final List<String> nodeZero = NodeJvmOptions.ofChild(List.of(heaps.nodeZero()));
        return launchers.start(new ProcessBuilder(LauncherProcess.command(nodeZero, args)));
    }

    /** The largest heap of node 0 (the run process) and of each child, as JVM options. */
    private record Heaps(String nodeZero, String child) {
    }

}
