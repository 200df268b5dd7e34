package org.divvy.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options of node processes: the defaults fill in what the user left open, and the collector follows
 * the largest heap (serial up to 1 GiB, G1 above), in {@code divvy run}'s children and, through
 * {@code bin/divvy}, in node 0.
 */
class NodeJvmOptionsTest {
    @Test
    void shouldGiveAChildTheSmallNodeDefaultsWhenNothingIsChosen() {
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx512m"), NodeJvmOptions.ofChild(List.of()));
        assertEquals(NodeJvmOptions.ofChild(List.of()), RunCommand.DEFAULT_CHILD_JVM_OPTIONS);
    }

    /**
     * A child process of K nodes ({@code --nodes-per-process}) gets the default largest heap K times, and the
     * collector that size calls for; a largest heap the user chose is the whole process's.
     */
    @Test
    void shouldScaleTheDefaultHeapOfAProcessByItsNodes() {
        assertEquals(NodeJvmOptions.ofChild(List.of()), NodeJvmOptions.ofChild(List.of(), 1));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx1024m"), NodeJvmOptions.ofChild(List.of(), 2));
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx4096m"), NodeJvmOptions.ofChild(List.of(), 8));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx1g"), NodeJvmOptions.ofChild(List.of("-Xmx1g"), 8));
        assertEquals(List.of("-Xms16m", "-Xmx4096m", "-XX:+UseParallelGC"),
            NodeJvmOptions.ofChild(List.of("-XX:+UseParallelGC"), 8));
        final RunCommand run = (RunCommand)org.divvy.examples.Launcher.parse("run", "--nodes", "9", "--nodes-per-process",
            "4", "--jvm-opt=-Xlog:gc", "fib").command();
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx2048m", "-Xlog:gc"), run.childJvmOptions(4));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx512m", "-Xlog:gc"), run.childJvmOptions(1));
    }

    @Test
    void shouldReplaceOnlyTheDefaultsAnOptionChooses() {
        // before: any --jvm-opt dropped every default, so -Xlog:gc alone gave a child G1 and a quarter of the memory
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx512m", "-Xlog:gc"), NodeJvmOptions.ofChild(List.of("-Xlog:gc")));
        assertEquals(List.of("-Xms16m", "-Xmx512m", "-XX:+UseParallelGC"), NodeJvmOptions.ofChild(List.of("-XX:+UseParallelGC")));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xmx512m", "-Xms64m"), NodeJvmOptions.ofChild(List.of("-Xms64m")));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx1g"), NodeJvmOptions.ofChild(List.of("-Xmx1g")));
        assertEquals(List.of("-Xms16m", "-XX:+UseSerialGC", "-Xmx2g"),
            NodeJvmOptions.ofChild(List.of("-XX:+UseSerialGC", "-Xmx2g")));
    }

    @Test
    void shouldMakeG1TheCollectorOfAHeapAboveOneGib() {
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx2g"), NodeJvmOptions.ofChild(List.of("-Xmx2g")));
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-XX:MaxHeapSize=1025m"),
            NodeJvmOptions.ofChild(List.of("-XX:MaxHeapSize=1025m")));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx1073741824"), NodeJvmOptions.ofChild(List.of("-Xmx1073741824")));
        // the last -Xmx is the JVM's; a percentage of the memory is left to the JVM's own choice of collector
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx512m", "-Xmx3G"), NodeJvmOptions.ofChild(List.of("-Xmx512m", "-Xmx3G")));
        assertEquals(List.of("-Xms16m", "-XX:MaxRAMPercentage=50"), NodeJvmOptions.ofChild(List.of("-XX:MaxRAMPercentage=50")));
    }

    @Test
    void shouldReadJvmSizes() {
        assertEquals(OptionalLong.of(3L << 30), NodeJvmOptions.maxHeapBytes(List.of("-Xmx3g")));
        assertEquals(OptionalLong.of(512L << 20), NodeJvmOptions.maxHeapBytes(List.of("-Xmx524288k")));
        assertEquals(OptionalLong.empty(), NodeJvmOptions.maxHeapBytes(List.of("-Xmx")));
        assertEquals(OptionalLong.empty(), NodeJvmOptions.maxHeapBytes(List.of("-Xmx2x")));
        assertEquals(OptionalLong.empty(), NodeJvmOptions.maxHeapBytes(List.of("-Xmx99999999999t")));
    }

    /** bin/divvy with a {@code java} that prints its arguments: node 0 gets the same collector as a child would. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void binDivvyShouldChooseNodeZerosCollectorByTheSameRule(@TempDir final Path home) throws Exception {
        final Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$@\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        final Path jar = Files.createFile(home.resolve("divvy-examples.jar"));

        // no -Xmx: the JVM's default maximum, a quarter of the machine's memory, decides (G1 on most machines)
        final String byDefault = quarterOfMemoryBytes() > (1L << 30) ? "-XX:+UseG1GC" : "-XX:+UseSerialGC";
        assertEquals(List.of(byDefault, "-Xms16m"), nodeZeroDefaults(home, jar, ""));
        assertEquals(List.of("-XX:+UseSerialGC", "-Xms16m", "-Xmx1g"), nodeZeroDefaults(home, jar, "-Xmx1g"));
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx3g"), nodeZeroDefaults(home, jar, "-Xmx3g"));
        assertEquals(List.of("-XX:+UseG1GC", "-Xms16m", "-Xmx512m", "-Xmx2G"), nodeZeroDefaults(home, jar, "-Xmx512m -Xmx2G"));
        assertEquals(List.of("-Xms16m", "-XX:+UseParallelGC", "-Xmx3g"), nodeZeroDefaults(home, jar, "-XX:+UseParallelGC -Xmx3g"));
        assertEquals(List.of(byDefault, "-Xms1g"), nodeZeroDefaults(home, jar, "-Xms1g"));
        for (final List<String> chosen : List.of(List.of("-Xmx3g"), List.of("-Xmx1g"), List.of("-XX:+UseParallelGC", "-Xmx3g"))) {
            assertEquals(collectorOf(NodeJvmOptions.ofChild(chosen)),
                collectorOf(nodeZeroDefaults(home, jar, String.join(" ", chosen))), "the same rule for " + chosen);
        }
    }

    /** The JVM options bin/divvy passes with {@code DIVVY_JAVA_OPTS=opts}, between the add-opens and -jar. */
    private static List<String> nodeZeroDefaults(final Path javaHome, final Path jar, final String opts)
        throws IOException, InterruptedException {
        final ProcessBuilder builder = new ProcessBuilder("sh", Path.of("..", "bin", "divvy").toString(), "--version")
            .redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("DIVVY_JAR", jar.toString());
        builder.environment().put("DIVVY_JAVA_OPTS", opts);
        final Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "bin/divvy returned");
        final String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        final List<String> words = Arrays.asList(printed.split("\\s+"));
        assertEquals(List.of("--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED"), words.subList(0, 2), printed);
        return words.subList(2, words.indexOf("-jar"));
    }

    /** The JVM's default maximum heap as bin/divvy estimates it: a quarter of /proc/meminfo's MemTotal. */
    private static long quarterOfMemoryBytes() throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.UTF_8)) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024 / 4;
            }
        }
        throw new IllegalStateException("no MemTotal in /proc/meminfo");
    }

    private static String collectorOf(final List<String> options) {
        return options.stream().filter(NodeJvmOptions::isCollector).reduce((a, b) -> b).orElse("none");
    }
}
