package org.divvy.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The JVM options of a node process: the user's, and a default for each of the collector, the starting heap and
 * (for {@code divvy run}'s children) the largest heap that the user did not choose. {@code bin/divvy} applies the
 * same rule to node 0 (the largest heap excepted: a single-node app takes what it needs). README, "Memory of a node".
 *
 * <p>The collector follows the largest heap. Up to {@link #SERIAL_MAX_HEAP_BYTES} the serial collector: it costs
 * least on idle nodes and small jobs, and copying what such a heap holds pauses the process for little. Above it
 * G1: a heap that size is asked for to hold big messages, and serial collections copying 200 MB arrays stopped
 * every thread, the network agent's included, for up to 1.9 s (perf/README.md, "Issue 7 closing figures";
 * G1's pauses in the same runs were at most 0.3 s).
 */
public final class NodeJvmOptions {
    /** The largest heap for which the serial collector is the default: 1 GiB. */
    public static final long SERIAL_MAX_HEAP_BYTES = 1L << 30;
    static final String SERIAL = "-XX:+UseSerialGC";
    static final String G1 = "-XX:+UseG1GC";
    /** A heap that starts small and grows as the live data needs (the JVM's default start is 1/64 of the memory). */
    static final String START_HEAP = "-Xms16m";
    /** Children's largest heap unless chosen: dozens of nodes fit in memory, a 10M-int mergesort's arrays too. */
    static final String CHILD_MAX_HEAP = "-Xmx512m";
    /** {@link #CHILD_MAX_HEAP} in MiB: a process of K nodes gets K times it unless chosen. */
    private static final long CHILD_MAX_HEAP_MIB = 512;

    private NodeJvmOptions() {
    }

    /** A child's options: {@code chosen} and, before them, the defaults for what {@code chosen} leaves open. */
    public static List<String> ofChild(final List<String> chosen) {
        return ofChild(chosen, 1);
    }

    /**
     * The options of a child process of {@code nodes} nodes ({@code divvy node --nodes}): as {@link #ofChild(List)},
     * but the default largest heap is {@link #CHILD_MAX_HEAP} per node ({@code -Xmx1536m} for 3), and the default
     * collector follows that size. A largest heap in {@code chosen} is the whole process's.
     */
    public static List<String> ofChild(final List<String> chosen, final int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes in a process: " + nodes);
        }
        final String defaultMaxHeap = nodes == 1 ? CHILD_MAX_HEAP : "-Xmx" + (CHILD_MAX_HEAP_MIB * nodes) + "m";
        final List<String> options = new ArrayList<>();
        final boolean maxHeapChosen = chosen.stream().anyMatch(NodeJvmOptions::isMaxHeap);
        final OptionalLong maxHeap = maxHeapChosen ? maxHeapBytes(chosen) : maxHeapBytes(List.of(defaultMaxHeap));
        if (chosen.stream().noneMatch(NodeJvmOptions::isCollector)) {
            // a largest heap set some other way (a percentage of the memory) is left to the JVM's choice
            maxHeap.ifPresent(bytes -> options.add(bytes <= SERIAL_MAX_HEAP_BYTES ? SERIAL : G1));
        }
        if (chosen.stream().noneMatch(NodeJvmOptions::isStartHeap)) {
            options.add(START_HEAP);
        }
        if (!maxHeapChosen) {
            options.add(defaultMaxHeap);
        }
        options.addAll(chosen);
        return List.copyOf(options);
    }

    /** Whether {@code option} chooses the collector ({@code -XX:+UseG1GC}, {@code -XX:+UseSerialGC}, ...). */
    static boolean isCollector(final String option) {
        return option.startsWith("-XX:+Use") && option.endsWith("GC");
    }

    private static boolean isStartHeap(final String option) {
        return option.startsWith("-Xms") || option.startsWith("-XX:InitialHeapSize=");
    }

    private static boolean isMaxHeap(final String option) {
        return option.startsWith("-Xmx") || option.startsWith("-XX:MaxHeapSize=") || option.startsWith("-XX:MaxRAM");
    }

    /** The largest heap the last {@code -Xmx}/{@code -XX:MaxHeapSize=} sets (the JVM's rule), empty if none or unreadable. */
    static OptionalLong maxHeapBytes(final List<String> options) {
        OptionalLong bytes = OptionalLong.empty();
        for (final String option : options) {
            if (option.startsWith("-Xmx")) {
                bytes = size(option.substring("-Xmx".length()));
            } else if (option.startsWith("-XX:MaxHeapSize=")) {
                bytes = size(option.substring("-XX:MaxHeapSize=".length()));
            } else if (option.startsWith("-XX:MaxRAM")) {
                bytes = OptionalLong.empty();
            }
        }
        return bytes;
    }

    /** A JVM size: digits and an optional k, m, g or t (either case). */
    private static OptionalLong size(final String text) {
        if (text.isEmpty()) {
            return OptionalLong.empty();
        }
        final char unit = Character.toLowerCase(text.charAt(text.length() - 1));
        final int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        final String digits = shift == 0 ? text : text.substring(0, text.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 18) {
            return OptionalLong.empty();
        }
        final long value = Long.parseLong(digits);
        return value > Long.MAX_VALUE >> shift ? OptionalLong.empty() : OptionalLong.of(value << shift);
    }
}
