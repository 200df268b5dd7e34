package org.divvy.perf.sharing;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.divvy.sharing.WriteTrace;
import org.divvy.transport.LinkTrace;

import io.aeron.driver.MediaDriver;

/** TEMPORARY (issue 9): where a probe write's time went, from WriteTrace/LinkTrace, and the drivers' counters. */
final class TraceReport {
    private TraceReport() {
    }

    /** Per thread group (name without digits): [cpu ns, run-queue wait ns, timeslices], from /proc/self/task/<tid>/schedstat. */
    static Map<String, long[]> schedstat() {
        final Map<String, long[]> groups = new TreeMap<>();
        final java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return groups;
        }
        for (final java.io.File task : tasks) {
            try {
                final String comm = java.nio.file.Files.readString(task.toPath().resolve("comm")).trim().replaceAll("[0-9]+", "#");
                final String[] f = java.nio.file.Files.readString(task.toPath().resolve("schedstat")).trim().split(" ");
                final long[] g = groups.computeIfAbsent(comm, k -> new long[4]);
                g[0] += Long.parseLong(f[0]);
                g[1] += Long.parseLong(f[1]);
                g[2] += Long.parseLong(f[2]);
                g[3]++;
            } catch (final java.io.IOException | RuntimeException ignored) {
                // a thread that ended meanwhile
            }
        }
        return groups;
    }

    static void printSched(final PrintStream log, final String name, final Map<String, long[]> before, final Map<String, long[]> after,
        final long ns) {
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, long[]> e : after.entrySet()) {
            final long[] b = before.getOrDefault(e.getKey(), new long[4]);
            final long[] a = e.getValue();
            final double cpu = (a[0] - b[0]) / (double)ns;
            final double wait = (a[1] - b[1]) / (double)ns;
            final long slices = a[2] - b[2];
            if (cpu > 0.005 || wait > 0.005) {
                sb.append(String.format("%s x%d: cpu %.2f, runq wait %.2f, %.0f slices/s, wait/slice %.2f ms; ", e.getKey(), a[3], cpu,
                    wait, slices / (ns / 1e9), slices == 0 ? 0 : (a[1] - b[1]) / 1e6 / slices));
            }
        }
        log.printf("  TRACE %s threads (cores, per second of the window): %s%n", name, sb);
    }

    /** The relay's and the drivers' threads to {@code nice}: the network's emulation is not to wait behind the nodes. */
    static void renice(final PrintStream log, final int nice) {
        final java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        final List<String> tids = new ArrayList<>();
        for (final java.io.File task : tasks) {
            try {
                final String comm = java.nio.file.Files.readString(task.toPath().resolve("comm")).trim();
                if (comm.equals("wan-relay") || comm.startsWith("/dev/shm/aeron") || comm.startsWith("aeron-executor")) {
                    tids.add(task.getName());
                }
            } catch (final java.io.IOException ignored) {
            }
        }
        final List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        command.addAll(tids);
        try {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes());
            log.printf("  reniced %d threads to %d: exit %d %s%n", tids.size(), nice, p.waitFor(), out.lines().count());
        } catch (final java.io.IOException | InterruptedException e) {
            log.println("  renice failed: " + e);
        }
    }

    static Map<String, Long> driverCounters(final MediaDriver[] drivers) {
        final Map<String, Long> all = new TreeMap<>();
        for (final MediaDriver driver : drivers) {
            driver.context().countersManager().forEach((counterId, typeId, keyBuffer, label) -> {
                final long value = driver.context().countersManager().getCounterValue(counterId);
                final String key;
                if (typeId == 0) {
                    key = label;
                } else {
                    final int colon = label.indexOf(':');
                    key = "#" + (colon > 0 ? label.substring(0, colon) : label);
                    all.merge(key + " count", 1L, Long::sum);
                    return;
                }
                all.merge(key, value, Long::sum);
            });
        }
        return all;
    }

    static void print(final PrintStream log, final String name, final List<WriteLatencyBenchmark.WriteSample> samples,
        final boolean[] holding, final int[] siteOf, final Map<String, Long> before, final Map<String, Long> after, final long ns) {
        final List<Double> toTake = new ArrayList<>();
        final List<Double> bcast = new ArrayList<>();
        final List<Double> arriveSame = new ArrayList<>();
        final List<Double> arriveOther = new ArrayList<>();
        final List<Double> applySame = new ArrayList<>();
        final List<Double> applyOther = new ArrayList<>();
        final List<Double> lastArrive = new ArrayList<>();
        final List<Double> drained = new ArrayList<>();
        final List<Double> relayIn = new ArrayList<>();
        final List<Double> relayOut = new ArrayList<>();
        long atOnce = 0, newPub = 0, notConn = 0, bp = 0, behind = 0, missingArrival = 0;
        for (final WriteLatencyBenchmark.WriteSample w : samples) {
            final int n = w.n();
            final long written = w.writtenNs();
            toTake.add(ms(WriteTrace.TAKEN_NS.get(n) - written));
            bcast.add(ms(WriteTrace.BROADCAST_DONE_NS.get(n) - WriteTrace.TAKEN_NS.get(n)));
            atOnce += LinkTrace.SENT_AT_ONCE.get(n);
            newPub += LinkTrace.QUEUED_NEW_PUBLICATION.get(n);
            notConn += LinkTrace.QUEUED_NOT_CONNECTED.get(n);
            bp += LinkTrace.QUEUED_BACK_PRESSURED.get(n);
            behind += LinkTrace.QUEUED_BEHIND.get(n);
            if (org.divvy.perf.wan.WanRelay.TRACE_IN_NS.get(n) != 0) {
                relayIn.add(ms(org.divvy.perf.wan.WanRelay.TRACE_IN_NS.get(n) - written));
                relayOut.add(ms(org.divvy.perf.wan.WanRelay.TRACE_OUT_NS.get(n) - written));
            }
            if (LinkTrace.LAST_DRAINED_NS.get(n) != 0) {
                drained.add(ms(LinkTrace.LAST_DRAINED_NS.get(n) - written));
            }
            long last = 0;
            for (int i = 1; i < holding.length; i++) {
                if (!holding[i]) {
                    continue;
                }
                final long arrived = WriteTrace.ARRIVED_NS.get(i * WriteTrace.WRITES + n);
                if (arrived == 0) {
                    missingArrival++;
                    continue;
                }
                last = Math.max(last, arrived);
                final boolean same = siteOf[i] == siteOf[0];
                (same ? arriveSame : arriveOther).add(ms(arrived - written));
                if (w.seenNs()[i] != 0) {
                    (same ? applySame : applyOther).add(ms(w.seenNs()[i] - arrived));
                }
            }
            if (last != 0) {
                lastArrive.add(ms(last - written));
            }
        }
        log.printf("  TRACE %s: write->agent take %s | take->broadcast done %s | arrival at agent, same site %s, other site %s,"
                + " last %s | arrival->applied same %s other %s | queued copies drained (last) %s%n",
            name, pct(toTake), pct(bcast), pct(arriveSame), pct(arriveOther), pct(lastArrive), pct(applySame), pct(applyOther),
            pct(drained));
        log.printf("  TRACE %s: relay: last probe datagram in %s, out %s; all sends' lateness mean %.2f ms max %.2f ms (cumulative)%n",
            name, pct(relayIn), pct(relayOut),
            org.divvy.perf.wan.WanRelay.LATE_SUM_NS.get() / 1e6 / Math.max(1, org.divvy.perf.wan.WanRelay.LATE_COUNT.get()),
            org.divvy.perf.wan.WanRelay.LATE_MAX_NS.get() / 1e6);
        log.printf("  TRACE %s: per-peer sends: at once %d, queued: new publication %d, not connected %d, back pressured %d,"
            + " behind queued control %d; arrivals missing %d%n", name, atOnce, newPub, notConn, bp, behind, missingArrival);
        final StringBuilder sb = new StringBuilder();
        for (final Map.Entry<String, Long> e : after.entrySet()) {
            final long b = before.getOrDefault(e.getKey(), 0L);
            final long d = e.getValue() - b;
            if (e.getKey().contains("max") || e.getKey().contains("exceeded")) {
                sb.append(e.getKey().replaceAll("doing its work in ns|threshold count: threshold=100ms", "")).append('=')
                    .append(e.getKey().contains("max") ? String.format("%.1fms", e.getValue() / 1e6) : e.getValue()).append("; ");
            } else if (e.getKey().startsWith("#")) {
                sb.append(e.getKey()).append('=').append(b).append("->").append(e.getValue()).append("; ");
            } else if (d != 0) {
                sb.append(e.getKey()).append(" +").append(d).append("; ");
            }
        }
        log.printf("  TRACE %s drivers over %.1f s: %s%n", name, ns / 1e9, sb);
    }

    private static double ms(final long ns) {
        return ns / 1e6;
    }

    private static String pct(final List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        final double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format("p10/p50/p90/max %.1f/%.1f/%.1f/%.1f ms (n=%d)", WriteLatencyBenchmark.percentile(v, 0.1),
            WriteLatencyBenchmark.percentile(v, 0.5), WriteLatencyBenchmark.percentile(v, 0.9), v[v.length - 1], v.length);
    }
}
