package org.divvy.perf.flood;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.divvy.NodeConfig;
import org.divvy.examples.Launcher;
import org.divvy.examples.cli.ChildCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.Configuration;

/**
 * Issue 7, finding 4, as a user sees it: {@code divvy run} on two processes while Aeron-shaped garbage floods
 * both nodes' UDP ports for the whole run still gives the right answer (it lives in perf, next to the flood
 * generator, and runs the launcher of the examples module). The run and its child are ended by their handles.
 */
class FloodedRunTest {
    private static final Pattern NODE_0 = Pattern.compile("local node 0 \\(this process.*\\) at (\\S+):(\\d+),");
    private static final Pattern NODE_1 = Pattern.compile("\\[node 1\\] node id 1 \\((\\S+):(\\d+),");
    private static final int BATCH = 1_000;

    private Process run;

    @AfterEach
    void killRun() {
        if (run != null) {
            run.descendants().forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldComputeTheRightAnswerWhileGarbageFloodsBothNodes() throws Exception {
        // 1597 leaves of 5 ms on 2 workers: about 4 s of run to flood
        run = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            ChildCommand.ADD_OPENS, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
            ChildCommand.MAIN_CLASS, "run", "--nodes", "2", "--workers", "1", "fib", "-n", "30", "--threshold", "16",
            "--simulate-leaf-us", "5000", "--progress-seconds", "0").redirectErrorStream(true).start();
        final StringBuilder output = new StringBuilder();
        final Thread reader = readInto(run, output);
        final InetSocketAddress node0 = awaitEndpoint(output, NODE_0, 40);
        final InetSocketAddress node1 = awaitEndpoint(output, NODE_1, 40);

        final AtomicBoolean ended = new AtomicBoolean();
        final AtomicLong sent = new AtomicLong();
        final int termLength = NodeConfig.builder().build().termLengthBytes();
        final Thread flood = new Thread(() -> {
            try (AeronGarbage to0 = new AeronGarbage(node0, 1, termLength, Configuration.mtuLength());
                AeronGarbage to1 = new AeronGarbage(node1, 2, termLength, Configuration.mtuLength())) {
                while (!ended.get()) {
                    sent.addAndGet(to0.send(BATCH) + to1.send(BATCH));
                }
            } catch (final IOException e) {
                throw new IllegalStateException(e);
            }
        }, "test-flood");
        flood.start();
        final boolean exited = run.waitFor(100, TimeUnit.SECONDS);
        ended.set(true);
        flood.join(10_000);
        reader.join(5_000);
        final String text;
        synchronized (output) {
            text = output.toString();
        }
        assertTrue(exited, "still running:\n" + text);
        assertTrue(sent.get() >= 100_000, "flooded with " + sent.get() + " datagrams only:\n" + text);
        assertEquals(Launcher.EXIT_OK, run.exitValue(), sent.get() + " datagrams of garbage:\n" + text);
        assertTrue(text.contains("fib(30) = 832040") && text.contains("PASS"), text);
        assertTrue(text.contains("all 2 local nodes ended with exit code 0"), text);
    }

    private static InetSocketAddress awaitEndpoint(final StringBuilder output, final Pattern pattern, final int seconds)
        throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (output) {
            while (true) {
                final Matcher m = pattern.matcher(output);
                if (m.find()) {
                    return new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
                }
                final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (remainingMs <= 0) {
                    throw new AssertionError("no " + pattern + " after " + seconds + " s:\n" + output);
                }
                output.wait(remainingMs);
            }
        }
    }

    private static Thread readInto(final Process process, final StringBuilder output) {
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (output) {
                        output.append(line).append('\n');
                        output.notifyAll();
                    }
                }
            } catch (final IOException e) {
                // the process is gone
            }
        }, "test-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        return reader;
    }
}
