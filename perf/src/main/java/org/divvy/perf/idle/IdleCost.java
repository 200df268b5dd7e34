package org.divvy.perf.idle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyException;
import org.divvy.DivvyNode;
import org.divvy.NodeConfig;
import org.divvy.perf.BenchmarkSecret;
import org.divvy.perf.lanwan.TimedFib;
import org.divvy.NodeSettings;

/**
 * The cost of idle nodes: starts {@code --nodes} processes (the first hosts the registry, the others
 * join it), lets them settle for {@code --warmup-s}, then samples each process's CPU ticks
 * ({@code /proc/<pid>/stat} utime + stime) and {@code VmRSS} over {@code --window-s} and prints one row
 * per node: CPU as % of one core, RSS at the end and its maximum (sampled once a second). Nodes use
 * the default settings but for the node settings given as {@code -Ddivvy.<setting>=...} after
 * {@code --jvm} (e.g. {@code -Ddivvy.deepIdleParkMs=20}; {@code --workers N} is short for
 * {@code -Ddivvy.workers=N}): each node reads them with {@link NodeConfig#fromSystemProperties()}, and
 * this process checks them first and prints the configuration they give. Linux only.
 *
 * <pre>
 * java -cp perf/target/divvy-perf.jar org.divvy.perf.idle.IdleCost [--nodes 2] [--workers 2]
 *      [--warmup-s 10] [--window-s 20] [--threads] [--in-run | --after-run] [--jvm -Dprop=value ...]
 * </pre>
 * {@code --in-run}: node 0 starts a run once all nodes joined whose root only waits, so the nodes idle inside a run
 * (nothing to steal) instead of between runs. {@code --after-run}: node 0 first runs a computation (SIMULATED fib leaves,
 * ~84 s of parked work, 6 s on 8 nodes of 2 workers) that every node steals in, so the nodes idle between runs with the streams a run leaves
 * between most pairs (publications stay open by default), each sending Aeron's idle heartbeats.
 * A node process is the same class with {@code --node [registry host:port]}: it starts a node, prints
 * {@code endpoint host:port}, and closes the node when its standard input ends.
 */
public final class IdleCost {
    private static final String ENDPOINT_PREFIX = "endpoint ";
    private static final String RUN_PREFIX = "run ";
    /** A line to node 0: once N nodes are members, run the mesh run (below) and then idle between runs. */
    private static final String AFTER_RUN_PREFIX = "after-run ";
    /** The run before an {@code --after-run} window: ~84 s of SIMULATED leaves (4,181 x 20 ms), spread over every node. */
    private static final int MESH_FIB_N = 32;
    private static final int MESH_FIB_THRESHOLD = 16;
    private static final int MESH_LEAF_US = 20_000;

    private IdleCost() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length > 0 && "--node".equals(args[0])) {
            runNode(args);
            return;
        }
        System.exit(run(args, System.out));
    }

    /**
     * One idle node until standard input ends. A line {@code run N} on it (node 0, {@code --in-run}): once N nodes
     * are members, this node starts a run whose root only waits for standard input to end, so every node is in
     * that run with nothing to steal.
     */
    private static void runNode(final String[] args) throws IOException, InterruptedException {
        final NodeConfig.Builder node = NodeConfig.fromSystemProperties().toBuilder().networked(true);
        if (args.length > 1) {
            node.join(args[1]);
        }
        try (DivvyNode divvy = DivvyNode.start(node.build())) {
            System.out.println(ENDPOINT_PREFIX + divvy.endpoint());
            System.out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            final AtomicBoolean inputEnded = new AtomicBoolean();
            Thread run = null;
            String line;
            while ((line = in.readLine()) != null) { // idle until the parent closes our standard input
                if (line.startsWith(AFTER_RUN_PREFIX)) {
                    final int members = Integer.parseInt(line.substring(AFTER_RUN_PREFIX.length()).trim());
                    divvy.awaitMembers(members, Duration.ofSeconds(60));
                    final long startNs = System.nanoTime();
                    final long value = divvy.run(() -> new TimedFib(MESH_FIB_THRESHOLD, MESH_LEAF_US, false).fib(MESH_FIB_N)).value();
                    System.out.printf(Locale.ROOT, "mesh run fib(%d) = %d in %.1f s (SIMULATED leaves of %d us)%n", MESH_FIB_N, value,
                        (System.nanoTime() - startNs) / 1e9, MESH_LEAF_US);
                    System.out.flush();
                }
                if (line.startsWith(RUN_PREFIX) && run == null) {
                    final int members = Integer.parseInt(line.substring(RUN_PREFIX.length()).trim());
                    divvy.awaitMembers(members, Duration.ofSeconds(60));
                    run = new Thread(() -> divvy.run(() -> {
                        while (!inputEnded.get()) {
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the root does nothing
                        }
                        return 0;
                    }), "idle-cost-run");
                    run.start();
                }
            }
            inputEnded.set(true);
            if (run != null) {
                run.join(TimeUnit.SECONDS.toMillis(5));
            }
        }
    }

    static int run(final String[] args, final PrintStream out) throws Exception {
        int nodes = 2;
        String workers = null;
        long warmupS = 10;
        long windowS = 20;
        boolean threads = false;
        boolean inRun = false;
        boolean afterRun = false;
        final List<String> jvm = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--workers" -> workers = args[++i]; // becomes -Ddivvy.workers
                case "--warmup-s" -> warmupS = Long.parseLong(args[++i]);
                case "--window-s" -> windowS = Long.parseLong(args[++i]);
                case "--threads" -> threads = true;
                case "--in-run" -> inRun = true;
                case "--after-run" -> afterRun = true;
                case "--jvm" -> {
                    while (i + 1 < args.length) {
                        jvm.add(args[++i]);
                    }
                }
                default -> {
                    System.err.println("IdleCost: unknown option " + args[i] +
                        "; usage: [--nodes 2] [--workers N] [--warmup-s 10] [--window-s 20] [--threads] [--in-run | --after-run] [--jvm -D...]");
                    return 2;
                }
            }
        }
        if (inRun && afterRun) {
            System.err.println("IdleCost: --in-run and --after-run exclude each other: choose one");
            return 2;
        }
        if (nodes < 1 || warmupS < 0 || windowS < 1) {
            System.err.println("IdleCost: --nodes=" + nodes + " must be >= 1, --warmup-s=" + warmupS + " >= 0, --window-s=" +
                windowS + " >= 1");
            return 2;
        }
        if (workers != null) {
            jvm.add(0, "-D" + NodeSettings.WORKERS.property() + "=" + workers);
        }
        final NodeConfig config;
        try {
            config = nodeConfig(jvm);
        } catch (final DivvyException e) {
            System.err.println("IdleCost: " + e.getMessage());
            return 2;
        }
        out.print(config.describe());
        final long ticksPerSecond = clockTicksPerSecond();
        final List<Process> processes = new ArrayList<>();
        try {
            String registry = null;
            for (int i = 0; i < nodes; i++) {
                final Process p = startNode(jvm, registry);
                processes.add(p);
                final String endpoint = awaitEndpoint(p);
                if (i == 0) {
                    registry = endpoint;
                }
                out.println("node " + i + " pid " + p.pid() + " at " + endpoint);
            }
            if (afterRun) { // node 0 runs a computation every node steals in (streams between most pairs), then all idle
                final OutputStream toNode0 = processes.get(0).getOutputStream();
                toNode0.write((AFTER_RUN_PREFIX + nodes + "\n").getBytes(StandardCharsets.UTF_8));
                toNode0.flush();
                final String ran = awaitLine(processes.get(0), "mesh run ");
                out.println(ran);
            }
            for (final Process p : processes) { // nothing else is read from the nodes: a full pipe would stop one
                final Thread drain = new Thread(() -> {
                    try {
                        p.getInputStream().transferTo(OutputStream.nullOutputStream());
                    } catch (final IOException e) {
                        // the node ended
                    }
                }, "idle-cost-drain-" + p.pid());
                drain.setDaemon(true);
                drain.start();
            }
            if (inRun) { // node 0 starts a run that does nothing: the nodes idle inside it
                final OutputStream toNode0 = processes.get(0).getOutputStream();
                toNode0.write((RUN_PREFIX + nodes + "\n").getBytes(StandardCharsets.UTF_8));
                toNode0.flush();
            }
            TimeUnit.SECONDS.sleep(warmupS);
            final long[] ticksBefore = new long[nodes];
            final List<Map<String, Long>> threadsBefore = new ArrayList<>();
            final long[] maxRssKb = new long[nodes];
            for (int i = 0; i < nodes; i++) {
                ticksBefore[i] = cpuTicks(processes.get(i).pid());
                threadsBefore.add(threadTicks(processes.get(i).pid()));
            }
            final long startNs = System.nanoTime();
            for (long s = 0; s < windowS; s++) {
                TimeUnit.SECONDS.sleep(1);
                for (int i = 0; i < nodes; i++) {
                    maxRssKb[i] = Math.max(maxRssKb[i], rssKb(processes.get(i).pid()));
                }
            }
            final double seconds = (System.nanoTime() - startNs) / 1e9;
            out.printf(Locale.ROOT, "%n%d idle node(s)%s, workers=%d, window %.1f s after %d s warm-up, jvm options %s%n",
                nodes, inRun ? " inside a run whose root waits (node 0's worker parks 100 ms at a time)"
                    : afterRun ? " between runs, after a run every node stole in" : " between runs",
                config.workers(), seconds, warmupS, jvm);
            out.printf(Locale.ROOT, "%-6s %-8s %12s %12s %12s%n", "node", "pid", "cpu % core", "rss MiB", "max rss MiB");
            for (int i = 0; i < nodes; i++) {
                final long pid = processes.get(i).pid();
                final double cpu = (cpuTicks(pid) - ticksBefore[i]) * 100.0 / ticksPerSecond / seconds;
                out.printf(Locale.ROOT, "%-6d %-8d %12.2f %12.1f %12.1f%n", i, pid, cpu, rssKb(pid) / 1024.0, maxRssKb[i] / 1024.0);
                if (threads) {
                    final Map<String, Long> after = threadTicks(pid);
                    for (final Map.Entry<String, Long> e : after.entrySet()) {
                        final long delta = e.getValue() - threadsBefore.get(i).getOrDefault(e.getKey(), 0L);
                        if (delta > 0) {
                            out.printf(Locale.ROOT, "         %8.2f%%  %s%n", delta * 100.0 / ticksPerSecond / seconds,
                                e.getKey().substring(e.getKey().indexOf(' ') + 1));
                        }
                    }
                }
            }
            return 0;
        } finally {
            for (int i = processes.size() - 1; i >= 0; i--) {
                stopNode(processes.get(i));
            }
        }
    }

    /**
     * The configuration the nodes will read from the {@code -Ddivvy.*} options in {@code jvm} (node 0's:
     * the others join it), checked here so a bad value fails before any process starts.
     */
    static NodeConfig nodeConfig(final List<String> jvm) {
        final Properties properties = new Properties();
        for (final String option : jvm) {
            final int eq = option.indexOf('=');
            if (option.startsWith("-Ddivvy.") && eq > 0) {
                properties.setProperty(option.substring(2, eq), option.substring(eq + 1));
            }
        }
        return NodeConfig.builder().properties(properties).networked(true).build();
    }

    private static Process startNode(final List<String> jvm, final String registry) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--add-opens");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.addAll(jvm);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(IdleCost.class.getName());
        command.add("--node");
        if (registry != null) {
            command.add(registry);
        }
        return BenchmarkSecret.export(NodeConfig.fromSystemProperties(), new ProcessBuilder(command))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String awaitEndpoint(final Process p) throws IOException {
        return awaitLine(p, ENDPOINT_PREFIX).substring(ENDPOINT_PREFIX.length()).trim();
    }

    /**
     * The next line of {@code p}'s standard output that starts with {@code prefix} (a node prints only such lines, one at
     * a time and flushed, so a reader per call loses nothing).
     */
    private static String awaitLine(final Process p, final String prefix) throws IOException {
        final BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IllegalStateException("node process " + p.pid() + " ended before printing '" + prefix.trim() + "' (exit " +
            (p.isAlive() ? "none" : String.valueOf(p.exitValue())) + ")");
    }

    /** Closes its standard input (the node leaves and exits), then kills it if it has not ended in 5 s. */
    private static void stopNode(final Process p) {
        try {
            p.getOutputStream().close();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (final IOException | InterruptedException e) {
            p.destroyForcibly();
        }
    }

    /** utime + stime of a process or thread from its {@code stat} file (fields 14 and 15, after the command name). */
    private static long ticksOf(final Path stat) throws IOException {
        final String text = Files.readString(stat);
        final String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long cpuTicks(final long pid) throws IOException {
        return ticksOf(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** "tid name" to ticks for every thread of the process. */
    private static Map<String, Long> threadTicks(final long pid) throws IOException {
        final Map<String, Long> ticks = new LinkedHashMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (final Path task : (Iterable<Path>)tasks::iterator) {
                try {
                    final String name = Files.readString(task.resolve("comm")).trim();
                    ticks.put(task.getFileName() + " " + name, ticksOf(task.resolve("stat")));
                } catch (final IOException threadEnded) {
                    // the thread ended between listing and reading
                }
            }
        }
        return ticks;
    }

    private static long rssKb(final long pid) throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /** {@code getconf CLK_TCK} (100 on Linux unless configured otherwise). */
    private static long clockTicksPerSecond() throws IOException, InterruptedException {
        final Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        final String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        try {
            return Long.parseLong(text);
        } catch (final NumberFormatException e) {
            return 100;
        }
    }
}
