package org.divvy.perf.sharing;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;

import org.divvy.DivvyNode;
import org.divvy.NetworkStatistics;

import io.aeron.driver.MediaDriver;

/**
 * What the write-latency harness prints with {@code --diagnose}, around each case's writes: the media drivers' counters
 * (streams held: one {@code snd-pos} counter per publication, one {@code rcv-pos} per image; heartbeats, status messages,
 * NAKs, retransmits, the longest duty cycles) and, per thread group of this JVM (a thread's name with its digits made
 * {@code #}), the CPU it used, the time it waited on a run queue for a core, and its time slices, from
 * {@code /proc/self/task/<tid>/schedstat} (Linux). One case's snapshot: {@link #take}; the difference: {@link #print}.
 */
final class WriteLatencyDiagnostics {
    /** A snapshot: the drivers' counters summed by label, and [cpu ns, run-queue wait ns, slices, threads] per thread group. */
    record Snapshot(long nanoTime, Map<String, Long> counters, Map<String, long[]> threads, Map<String, Long> messages) {
    }

    /** Message type codes whose sent counts are summed over the nodes (the protocol's codes are small). */
    private static final int MESSAGE_TYPES = 64;

    private WriteLatencyDiagnostics() {
    }

    static Snapshot take(final MediaDriver[] drivers, final DivvyNode[] nodes) {
        return new Snapshot(System.nanoTime(), driverCounters(drivers), threads(), messages(nodes));
    }

    /** Messages sent by all nodes, by type name (what the nodes' traffic is made of: steal requests, writes, heartbeats). */
    private static Map<String, Long> messages(final DivvyNode[] nodes) {
        final Map<String, Long> sent = new TreeMap<>();
        for (final DivvyNode node : nodes) {
            final NetworkStatistics statistics = node.networkStatistics();
            for (int type = 0; type < MESSAGE_TYPES; type++) {
                if (statistics.messagesSent(type) > 0) {
                    sent.merge(statistics.typeName(type), statistics.messagesSent(type), Long::sum);
                }
            }
        }
        return sent;
    }

    static void print(final PrintStream log, final String caseName, final Snapshot before, final Snapshot after) {
        final double seconds = (after.nanoTime() - before.nanoTime()) / 1e9;
        final StringBuilder counters = new StringBuilder();
        for (final Map.Entry<String, Long> e : after.counters().entrySet()) {
            final String key = e.getKey();
            final long was = before.counters().getOrDefault(key, 0L);
            if (key.startsWith("streams ")) {
                counters.append(key).append(' ').append(was).append(" -> ").append(e.getValue()).append("; ");
            } else if (key.contains("max cycle time")) {
                counters.append(key.replace(" doing its work in ns", "")).append(String.format(" %.1f ms; ", e.getValue() / 1e6));
            } else if (e.getValue() != was) {
                counters.append(key).append(" +").append(e.getValue() - was).append("; ");
            }
        }
        log.printf("  diagnose %s, drivers over %.1f s: %s%n", caseName, seconds, counters);
        final StringBuilder messages = new StringBuilder();
        for (final Map.Entry<String, Long> e : after.messages().entrySet()) {
            final long sent = e.getValue() - before.messages().getOrDefault(e.getKey(), 0L);
            if (sent > 0) {
                messages.append(e.getKey()).append(String.format(" %.0f/s; ", sent / seconds));
            }
        }
        log.printf("  diagnose %s, messages the nodes sent: %s%n", caseName, messages);
        final StringBuilder threads = new StringBuilder();
        for (final Map.Entry<String, long[]> e : after.threads().entrySet()) {
            final long[] was = before.threads().getOrDefault(e.getKey(), new long[4]);
            final long[] now = e.getValue();
            final double cpu = (now[0] - was[0]) / 1e9 / seconds;
            final double waiting = (now[1] - was[1]) / 1e9 / seconds;
            if (cpu >= 0.01 || waiting >= 0.01) {
                threads.append(String.format("%s x%d: cpu %.2f, run-queue wait %.2f, %.0f slices/s; ", e.getKey(), now[3], cpu, waiting,
                    (now[2] - was[2]) / seconds));
            }
        }
        log.printf("  diagnose %s, threads (cores used; threads waiting for a core, on average): %s%n", caseName, threads);
    }

    /** The drivers' system counters summed by label; other counters counted by kind ("streams snd-pos": publications). */
    private static Map<String, Long> driverCounters(final MediaDriver[] drivers) {
        final Map<String, Long> all = new TreeMap<>();
        // a publication's label is "snd-pos: <registration id> <session id> <stream id> <channel>": without the two ids,
        // the link it sends on (a peer's endpoint, or the relay's port for one ordered pair of nodes across sites)
        final java.util.Set<String> sendChannels = new java.util.HashSet<>();
        for (int d = 0; d < drivers.length; d++) {
            final MediaDriver driver = drivers[d];
            final int driverIndex = d;
            final var reader = driver.context().countersManager();
            reader.forEach((counterId, typeId, keyBuffer, label) -> {
                if (typeId == 0) {
                    all.merge(label.replaceAll(": threshold=.*|: SHARED", ""), reader.getCounterValue(counterId),
                        label.contains("max cycle time") ? Math::max : Long::sum);
                } else {
                    final int colon = label.indexOf(':');
                    final String kind = colon > 0 ? label.substring(0, colon) : label;
                    if (kind.equals("snd-pos") || kind.equals("rcv-pos")) {
                        all.merge("streams " + kind, 1L, Long::sum);
                    }
                    if (kind.equals("snd-pos")) {
                        final String[] parts = label.split(" ", 4);
                        sendChannels.add(driverIndex + " " + (parts.length == 4 ? parts[3] : label));
                    }
                }
            });
        }
        all.put("streams snd-pos links", (long)sendChannels.size());
        return all;
    }

    /**
     * Sets the nice value of this JVM's relay thread ({@code wan-relay}) to {@code nice} with {@code renice} (Linux; below 0
     * needs root): the relay stands for the wide-area links, and at the default it waited for a core behind 64 nodes'
     * agents and workers (a datagram left 1.6-25 ms after its release time on average, perf/README.md). Says what it did;
     * throws {@link IllegalStateException} if it could not (the results would be labelled with a nice value they did not
     * have).
     */
    static void reniceRelay(final PrintStream log, final int nice) {
        final File[] tasks = new File("/proc/self/task").listFiles();
        String tid = null;
        for (final File task : tasks == null ? new File[0] : tasks) {
            try {
                if (Files.readString(task.toPath().resolve("comm")).trim().equals("wan-relay")) {
                    tid = task.getName();
                }
            } catch (final IOException ended) {
                // the thread ended between the listing and the read
            }
        }
        final String fix = "; run as root for a nice value below 0, or pass --relay-nice 0";
        if (tid == null) {
            throw new IllegalStateException("--relay-nice " + nice + ": the relay thread (wan-relay) was not found" + fix);
        }
        try {
            final Process renice = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", tid).redirectErrorStream(true).start();
            final String output = new String(renice.getInputStream().readAllBytes()).trim();
            final int exit = renice.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("--relay-nice " + nice + ": renice exited " + exit + " (" + output + ")" + fix);
            }
            log.println("  relay thread at nice " + nice);
        } catch (final IOException e) {
            throw new IllegalStateException("--relay-nice " + nice + ": renice could not run (" + e.getMessage() + ")" + fix, e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("--relay-nice " + nice + ": interrupted while setting it", e);
        }
    }

    private static Map<String, long[]> threads() {
        final Map<String, long[]> groups = new TreeMap<>();
        final File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return groups; // not Linux
        }
        for (final File task : tasks) {
            try {
                final String name = Files.readString(task.toPath().resolve("comm")).trim().replaceAll("[0-9]+", "#");
                final String[] stat = Files.readString(task.toPath().resolve("schedstat")).trim().split(" ");
                final long[] group = groups.computeIfAbsent(name, k -> new long[4]);
                group[0] += Long.parseLong(stat[0]);
                group[1] += Long.parseLong(stat[1]);
                group[2] += Long.parseLong(stat[2]);
                group[3]++;
            } catch (final IOException | RuntimeException ended) {
                // the thread ended between the listing and the read
            }
        }
        return groups;
    }
}
