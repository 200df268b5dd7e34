package org.divvy.perf.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * One {@code divvy run} as a child process of this JVM (the examples launcher on this class path), its merged
 * output read line by line, with a hard deadline: past it the whole process tree is SIGKILLed and the run fails.
 * When asked, it stops every node of one site at a given time after the run started, with SIGKILL (a crash) or
 * SIGTERM (a graceful leave) (the launcher prints the master it expects just before it submits the root; the clock
 * starts at that line): the harness does this itself because the site that holds the master is known only then
 * (node ids, and so the master, follow the order in which the children happen to join).
 */
final class DivvyRunProcess {
    /** The examples launcher: {@code divvy} itself. */
    static final String LAUNCHER = "org.divvy.examples.Launcher";
    static final String ADD_OPENS = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** Node 0's log line when its registry declares a node dead (the failure detector's verdict). */
    static final String DECLARED_DEAD = "was declared dead by the registry";
    /** How long a run may wait for the lock (and its JVM to start) before its deadline starts. */
    static final long LOCK_WAIT_S = 1_800;

    /**
     * What a run gave: its lines, which site was stopped (null: none), how many of its nodes, when, the failure
     * detector's delay (a kill) and the seconds from the stop until the last stopped process had exited.
     */
    record Result(List<String> lines, List<String> stampedLines, String killedSite, int killedNodes, double killedAtS,
        double detectionS, double goneS, int exitCode) {
    }

    private DivvyRunProcess() {
    }

    /** The command line of node 0 running {@code divvyArgs} ({@code run ...}). */
    static List<String> command(final List<String> divvyArgs) {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), ADD_OPENS, "-XX:+UseSerialGC"));
        if (divvyArgs.contains("-XX:TieredStopAtLevel=1")) {
            command.add("-XX:TieredStopAtLevel=1"); // --quick: node 0 starts faster too
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LAUNCHER));
        command.addAll(divvyArgs);
        return command;
    }

    /**
     * Runs {@code divvy divvyArgs} (under {@code flock lockFile} unless null); if {@code fault} stops a site, signals
     * the chosen site's nodes {@code stopAtS} seconds after the run started. Throws {@link IllegalStateException} (with the output so far) past {@code deadlineS} or if the
     * site to kill cannot be found.
     */
    static Result run(final String lockFile, final List<String> divvyArgs, final Scenario.Fault fault, final double stopAtS,
        final int sites, final int nodesPerSite, final int processesPerSite, final double deadlineS)
        throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>();
        if (lockFile != null) { // flock(1) runs the launcher as its child and holds the lock while it runs
            command.addAll(List.of("flock", lockFile));
        }
        command.addAll(command(divvyArgs));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final List<String> lines = new ArrayList<>();
        final List<String> stamped = new ArrayList<>();
        final long[] startedNs = {0};
        final String[] masterSite = {null};
        final long[] declaredDeadNs = {0};
        final long launchedNs = System.nanoTime();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                        stamped.add(String.format(java.util.Locale.ROOT, "%7.2f %s", (System.nanoTime() - launchedNs) / 1e9, line));
                        if (declaredDeadNs[0] == 0 && line.startsWith("WARNING: node ") && line.contains(DECLARED_DEAD)) {
                            declaredDeadNs[0] = System.nanoTime(); // node 0's own log: the registry declared a node dead
                        }
                        final Matcher m = RunSample.EXPECTED_MASTER.matcher(line);
                        if (m.find() && startedNs[0] == 0) {
                            startedNs[0] = System.nanoTime();
                            masterSite[0] = m.group(3);
                        }
                        lines.notifyAll();
                    }
                }
            } catch (final IOException e) {
                // the process is gone
            }
        }, "faults-output");
        reader.setDaemon(true);
        reader.start();
        // the deadline counts from the launcher's first line: before it, flock may wait for others' heavy jobs
        synchronized (lines) {
            final long lockDeadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(LOCK_WAIT_S);
            while (lines.isEmpty() && process.isAlive()) {
                if (System.nanoTime() - lockDeadlineNs > 0) {
                    destroyTree(process);
                    throw new IllegalStateException("divvy run printed nothing within " + LOCK_WAIT_S + " s"
                        + (lockFile == null ? "" : " (waiting for the lock " + lockFile + "?)"));
                }
                lines.wait(200);
            }
        }
        final long deadlineNs = System.nanoTime() + (long)(deadlineS * 1e9);
        String killedSite = null;
        int killed = 0;
        double killedAt = Double.NaN;
        long killedNs = 0;
        final long[] lastGoneNs = {0};
        try {
            if (fault.stops()) {
                synchronized (lines) {
                    while (startedNs[0] == 0 && process.isAlive()) {
                        waitUntil(lines, deadlineNs);
                    }
                }
                if (startedNs[0] == 0) {
                    throw new IllegalStateException("the run ended before it started:\n" + String.join("\n", lines));
                }
                final long killNs = startedNs[0] + (long)(stopAtS * 1e9);
                final String site = siteToKill(fault, masterSite[0], sites);
                final List<ProcessHandle> victims = nodesOfSite(process, site); // found before the kill time: it is exact
                if (victims.size() != processesPerSite) {
                    throw new IllegalStateException("site " + site + ": found " + victims.size()
                        + " node processes, expected " + processesPerSite);
                }
                long leftNs;
                while ((leftNs = killNs - System.nanoTime()) > 0 && process.isAlive()) {
                    TimeUnit.NANOSECONDS.sleep(Math.min(leftNs, 20_000_000L));
                }
                if (process.isAlive()) {
                    killedSite = site;
                    for (final ProcessHandle victim : victims) {
                        if (fault.signal() == Scenario.Signal.SIGKILL) {
                            victim.destroyForcibly();
                        } else {
                            victim.destroy(); // SIGTERM: through the handle, which leaves the node's output open
                        }
                        victim.onExit().thenRun(() -> {
                            synchronized (lastGoneNs) {
                                lastGoneNs[0] = Math.max(lastGoneNs[0], System.nanoTime());
                            }
                        });
                    }
                    killedNs = System.nanoTime();
                    killedAt = (System.nanoTime() - startedNs[0]) / 1e9;
                    killed = nodesPerSite; // every node of the site: the victims are its processes
                    synchronized (lines) {
                        stamped.add(String.format(java.util.Locale.ROOT, "%7.2f ", (System.nanoTime() - launchedNs) / 1e9) + String.format(java.util.Locale.ROOT,
                            "faults harness: t=%.2f s: %s site %s (%d nodes, process pids %s)%s", killedAt,
                            fault.kills() ? "SIGKILLed" : "SIGTERMed (a graceful leave)", killedSite, killed, victims.stream().map(ProcessHandle::pid).toList(),
                            killedSite.equals(masterSite[0]) ? ", the master's site" : ", not the master's site"));
                    }
                }
            }
            final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (!process.waitFor(Math.max(1, leftMs), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("divvy run did not end within its deadline of " + deadlineS + " s");
            }
            reader.join(5_000);
            synchronized (lines) {
                final double detection = !fault.kills() || killedNs == 0 || declaredDeadNs[0] == 0 ? Double.NaN
                    : (declaredDeadNs[0] - killedNs) / 1e9;
                final double gone;
                synchronized (lastGoneNs) {
                    gone = killedNs == 0 || lastGoneNs[0] == 0 ? Double.NaN : (lastGoneNs[0] - killedNs) / 1e9;
                }
                return new Result(List.copyOf(lines), List.copyOf(stamped), killedSite, killed, killedAt, detection,
                    gone, process.exitValue());
            }
        } catch (final RuntimeException | InterruptedException e) {
            destroyTree(process);
            reader.join(2_000);
            synchronized (lines) {
                throw new IllegalStateException(e.getMessage() + "; its output:\n" + String.join("\n", lines), e);
            }
        } finally {
            if (process.isAlive()) {
                destroyTree(process);
            }
        }
    }

    private static void waitUntil(final Object monitor, final long deadlineNs) throws InterruptedException {
        final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
        if (leftMs <= 0) {
            throw new IllegalStateException("divvy run did not start the app within its deadline");
        }
        monitor.wait(Math.min(leftMs, 200));
    }

    /** The master's site, or the last computing site that does not hold the master. */
    static String siteToKill(final Scenario.Fault fault, final String masterSite, final int sites) {
        if (fault.mastersSite()) {
            if (masterSite == null || "R".equals(masterSite)) {
                throw new IllegalStateException("the master is node 0 (site R), which cannot be stopped");
            }
            return masterSite;
        }
        for (int i = sites - 1; i >= 0; i--) {
            final String site = Scenario.siteName(i);
            if (!site.equals(masterSite)) {
                return site;
            }
        }
        throw new IllegalStateException("no site without the master");
    }

    /** The node processes {@code divvy run} started in {@code site} (their command line says {@code --site SITE}). */
    static List<ProcessHandle> nodesOfSite(final Process run, final String site) {
        return run.descendants().filter(p -> {
            final Optional<String[]> args = p.info().arguments();
            if (args.isEmpty()) {
                return false;
            }
            final List<String> a = Arrays.asList(args.get());
            final int at = a.indexOf("--site");
            return a.contains("node") && at >= 0 && at + 1 < a.size() && a.get(at + 1).equals(site);
        }).toList();
    }

    /** SIGKILLs the run and every process under it. */
    static void destroyTree(final Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
