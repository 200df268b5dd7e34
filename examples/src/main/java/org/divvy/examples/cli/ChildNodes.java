package org.divvy.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.divvy.DivvyException;
import org.divvy.transport.DriverDirectories;
import org.divvy.examples.cli.FaultSchedule.Stop;

/**
 * The child JVMs {@code divvy run} started on this machine: starts them, copies their output with a
 * {@code [node k]} prefix, and watches them die. Before the run starts ({@link #startRun()}) a child that
 * exits means the run cannot start: {@link #death()} names it, so the run ends with an error instead of
 * waiting for it. Once the run is under way a child that dies (crashed, or killed on purpose by
 * {@code --kill-at}) is a crash the run survives: the other nodes recover its work, so this prints one line
 * naming it, deletes its Aeron directory at once (a killed node cannot; each holds tens of MB of /dev/shm) and
 * leaves it out of the exit codes {@link #awaitExits} checks at the end. {@link #close()} ends every child
 * still alive, by its own process handle (never by name), and deletes the Aeron directories left behind.
 * A child is named by its launch index and, once it printed that it joined, by the runtime's node id too
 * ({@code node 2 (pid 1234, site A, node id 1)}), since the nodes' own logs use the id. A node of a process of several
 * ({@code --nodes-per-process}) may end alone while its process lives on: its own end line ({@link WorkerNode#endedLine})
 * then stands for its exit, during the run (reported, survived) and at the end (its code, not the process's, judged).
 *
 * <p>A child started while the run is under way ({@code --join-at}) is a late joiner. One that has not
 * joined when the computation ends may never hear that it ended (it joins after node 0's TERMINATE), so
 * {@link #awaitExits} gives it a short grace and then stops it, without counting it as a problem.
 *
 * <p>Thread-safe: the run's thread, the fault injector's thread and the JDK's process reaper (exit
 * callbacks) use it; the phase and each child's end are decided under this object's lock.
 */
public final class ChildNodes implements AutoCloseable {
    /** Exit code of a JVM killed by signal N is 128 + N. */
    private static final int SIGNAL_EXIT_BASE = 128;
    /** How long a late joiner that had not joined when the computation ended gets to exit by itself. */
    static final long LATE_JOINER_GRACE_MS = 3_000;

    /** Where the run is: what a child's exit means. */
    private enum Phase {
        /** Nodes are starting and joining: an exit means the run cannot start. */
        JOINING,
        /** The app runs: an exit is a crash the run survives. */
        RUNNING,
        /** Node 0 ended the computation (or the run failed): children exit now. */
        ENDING
    }

    private final PrintStream out;
    private final List<Child> children = new CopyOnWriteArrayList<>();
    private final CompletableFuture<String> death = new CompletableFuture<>();
    private Phase phase = Phase.JOINING;
    /** Told the node id of a joined child whose process exited while the run was under way; set once. */
    private volatile ExitListener exitedDuringRun = (id, afterLeaving) -> { };

    public ChildNodes(final PrintStream out) {
        this.out = out;
    }

    /**
     * Starts local node {@code index} (in site {@code site}) with {@code command}; its output goes to
     * ours prefixed {@code [node index] }. Throws {@link DivvyException} if the JVM cannot start.
     */
    public void start(final int index, final String site, final List<String> command) {
        start(index, site, command, null, Map.of());
    }

    /**
     * As {@link #start(int, String, List)}, for a child whose embedded media driver uses {@code aeronDir}
     * (null: unknown); it is deleted once the child is dead. {@code environment} is added to the child's (this
     * process's) environment. A child started while the run is under way (after {@link #startRun()}, before
     * {@link #expectExits()}) is a late joiner.
     */
    public void start(final int index, final String site, final List<String> command, final Path aeronDir,
        final Map<String, String> environment) {
        start(index, 1, site, command, aeronDir, environment);
    }

    /**
     * As {@link #start(int, String, List, Path, Map)}, for a process that holds local nodes {@code index} to {@code
     * index + count - 1} ({@code divvy node --nodes count}; {@code aeronDir} null then: its drivers name their own
     * directories for its pid, which are removed once it is dead). Each node is a child of its own here, with its
     * own node id (the process's joined lines, in order) and its own line when the process dies; a stop of any of
     * them stops the process, so all of them.
     */
    public void start(final int index, final int count, final String site, final List<String> command,
        final Path aeronDir, final Map<String, String> environment) {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        final Process process;
        try {
            process = builder.start();
        } catch (final IOException e) {
            throw new DivvyException("cannot start local node " + index + " (" + command.get(0) + "): "
                + e.getMessage());
        }
        final List<Child> started = new ArrayList<>();
        synchronized (this) {
            for (int k = index; k < index + count; k++) {
                final Child child = new Child(k, site, process, aeronDir, phase == Phase.RUNNING);
                child.driversNamedByPid = count > 1;
                children.add(child);
                started.add(child);
            }
        }
        final String prefix = count == 1 ? "[node " + index + "] " : "[nodes " + index + "-" + (index + count - 1) + "] ";
        final OutputPump pump = OutputPump.start(process.getInputStream(), prefix, out, line -> {
            // the process's nodes are alike (one site, one process): its k-th joined line names the k-th
            WorkerNode.joinedNodeId(line).ifPresent(id -> started.stream().filter(c -> c.nodeId < 0).findFirst()
                .ifPresent(child -> joined(child, id)));
            // a node of a process of several ends alone (declared dead, ordered out) or with the computation
            final int[] ended = count > 1 ? WorkerNode.endedNodeAndCode(line) : null;
            if (ended != null) {
                started.stream().filter(c -> c.nodeId == ended[0]).findFirst()
                    .ifPresent(child -> onNodeEnded(child, ended[1]));
            }
        });
        for (final Child child : started) {
            child.pump = pump;
            process.onExit().thenAccept(p -> onExit(child));
        }
    }

    /**
     * {@code listener} is told the node id of every joined child whose process exits while the run is under way,
     * as soon as the JDK's process reaper sees the exit (node 0 tells its registry, which then declares the node
     * dead at once instead of waiting seconds for its silence), and whether it had been asked to leave or ended
     * normally (a graceful leaver, whose exit may overtake its LEAVE). Called on the reaper's thread, at most once
     * per child.
     */
    public void onExitDuringRun(final ExitListener listener) {
        exitedDuringRun = listener;
    }

    /** Told of a child's exit during the run. */
    @FunctionalInterface
    public interface ExitListener {
        void exited(int nodeId, boolean afterLeaving);
    }

    private synchronized void joined(final Child child, final int nodeId) {
        child.nodeId = nodeId;
        notifyAll(); // awaitNodeIds
    }

    /**
     * Waits up to {@code timeoutMs} until every child started so far has printed its node id (it joined) or is
     * dead: the registry counts a member before the child's line that it joined has been copied here.
     */
    public synchronized void awaitNodeIds(final long timeoutMs) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            while (children.stream().anyMatch(c -> !c.joined() && c.process.isAlive())) {
                final long waitMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
                if (waitMs <= 0) {
                    return;
                }
                wait(Math.min(waitMs, 50)); // a death notifies no one: look again every 50 ms
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The name of the local child with node id {@code nodeId} ({@code node 2 (pid 1234, site A, node id 1)}), if any. */
    public Optional<String> nameOfNodeId(final int nodeId) {
        return children.stream().filter(c -> c.nodeId == nodeId).findFirst().map(Child::name);
    }

    /**
     * The name of the child that is the master of a root node 0 submitted, or will be once the registry has
     * declared the killed ones dead: the registry gives the root to the alive member with the lowest node id
     * but the submitter's (RootKeeper), so, if every member is a node of this run, the child with the lowest
     * node id among those running and not killed. Empty if there is none (node 0 is then the master itself).
     */
    public synchronized Optional<String> expectedMaster() {
        return expectedMasterChild().map(Child::name);
    }

    /** SIGKILLs the {@link #expectedMaster()}, as {@link #kill(int, Consumer)}; returns its name, or empty if none. */
    public synchronized Optional<String> killExpectedMaster(final Consumer<List<String>> announce) {
        return stopExpectedMaster(Stop.KILL, announce);
    }

    /** Stops the {@link #expectedMaster()}, as {@link #stop}; returns its name, or empty if none. */
    public synchronized Optional<String> stopExpectedMaster(final Stop stop, final Consumer<List<String>> announce) {
        return expectedMasterChild().flatMap(master -> stop(stop, List.of(master), announce).stream().findFirst());
    }

    private Optional<Child> expectedMasterChild() {
        return children.stream().filter(ChildNodes::isLive).min(Comparator.comparingInt(c -> c.nodeId));
    }

    /** Completes with a message naming the first child that exited before {@link #startRun()}. */
    public CompletableFuture<String> death() {
        return death;
    }

    /**
     * The run starts: from now on a child that dies is survived and reported, not an error. Throws
     * {@link DivvyException} naming the child if one has died already (the run has not started).
     */
    public synchronized void startRun() {
        if (death.isDone()) {
            throw new DivvyException(death.join());
        }
        if (phase == Phase.JOINING) {
            phase = Phase.RUNNING;
        }
    }

    /**
     * From now on children may exit: node 0 has ended the computation (or the run failed). A child
     * already dead, or killed on purpose, ended during the run.
     */
    public synchronized void expectExits() {
        if (phase == Phase.RUNNING) {
            for (final Child child : children) {
                if (child.stoppedOnPurpose || !child.process.isAlive()) {
                    child.endedDuringRun = true;
                } else if (child.lateJoiner && !child.joined()) {
                    child.unjoinedAtEnd = true;
                }
            }
        }
        phase = Phase.ENDING;
    }

    /** The number of children started. */
    public int size() {
        return children.size();
    }

    /**
     * SIGKILLs local node {@code index} if it is alive (a death the run survives, not an error); returns its
     * name ({@code node 2 (pid 1234, site A, node id 1)}), or empty if no such node was started or it is already
     * dead.
     * {@code announce} gets the name just before the kill, so what it prints comes before the death's line.
     */
    public synchronized Optional<String> kill(final int index, final Consumer<List<String>> announce) {
        return stop(Stop.KILL, index, announce);
    }

    /**
     * Stops local node {@code index} if it is alive: SIGKILL ({@link Stop#KILL}, a crash) or SIGTERM ({@link
     * Stop#LEAVE}: the node's exit hook leaves gracefully, handing its finished work to a staying node); either is
     * survived. Returns its name, or empty if no such node was started or it is already dead or stopped. {@code
     * announce} gets the name just before the signal, so what it prints comes before the line of the exit.
     */
    public synchronized Optional<String> stop(final Stop stop, final int index, final Consumer<List<String>> announce) {
        return stop(stop, children.stream().filter(c -> c.index == index).toList(), announce).stream().findFirst();
    }

    /** SIGKILLs every live local node of {@code site}, as {@link #kill(int, Consumer)}; returns the names of those killed. */
    public synchronized List<String> killSite(final String site, final Consumer<List<String>> announce) {
        return stopSite(Stop.KILL, site, announce);
    }

    /** Stops every live local node of {@code site}, as {@link #stop(Stop, int, Consumer)}; returns their names. */
    public synchronized List<String> stopSite(final Stop stop, final String site, final Consumer<List<String>> announce) {
        return stop(stop, children.stream().filter(c -> c.site.equals(site)).toList(), announce);
    }

    private List<String> stop(final Stop stop, final List<Child> candidates, final Consumer<List<String>> announce) {
        // not those stopped already (a signalled process may live on for a while), nor the dead; a node shares its
        // fate with the others of its process (--nodes-per-process): stopping one stops them all
        // (the candidates first, so the first name is the node asked for)
        final List<Child> asked = candidates.stream().filter(c -> !c.stoppedOnPurpose && !c.ended() && c.process.isAlive())
            .toList();
        final List<Child> alive = Stream.concat(asked.stream(), children.stream()
                .filter(c -> !asked.contains(c) && asked.stream().anyMatch(k -> k.process == c.process)
                    && !c.stoppedOnPurpose && !c.ended()))
            .toList();
        final List<String> names = alive.stream().map(Child::name).toList();
        if (!alive.isEmpty()) {
            announce.accept(names);
        }
        final Set<Process> signalled = new HashSet<>();
        for (final Child child : alive) {
            child.stoppedOnPurpose = true;
            child.leaving = stop == Stop.LEAVE;
            if (!signalled.add(child.process)) {
                continue; // a process of several nodes gets one signal
            }
            if (stop == Stop.KILL) {
                child.process.destroyForcibly(); // SIGKILL on Linux and macOS
            } else {
                // SIGTERM: the node's exit hook leaves gracefully. Through the handle: Process.destroy() would also
                // close our end of its output, losing the lines it prints while it leaves
                child.process.toHandle().destroy();
            }
        }
        return names;
    }

    /**
     * Waits up to {@code timeoutMs} in all for every child to exit and returns a line per child whose exit
     * code is not {@code expectedCode} (or that is still running); empty when all exited as expected. A child
     * that died during the run is no problem (the run survived it; see {@link #summary}); nor is a late joiner
     * that had not joined when the computation ended: it gets {@link #LATE_JOINER_GRACE_MS}, then it is stopped.
     */
    public List<String> awaitExits(final int expectedCode, final long timeoutMs) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final List<String> problems = new ArrayList<>();
        for (final Child child : children) {
            final long remainingMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
            final boolean unjoined = isUnjoinedAtEnd(child);
            final boolean exited;
            try {
                exited = child.process.waitFor(unjoined ? Math.min(remainingMs, LATE_JOINER_GRACE_MS) : remainingMs,
                    TimeUnit.MILLISECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                problems.add("local " + child.name() + ": interrupted while waiting for it to exit");
                continue;
            }
            if (endedDuringRun(child)) {
                continue;
            }
            if (unjoined) {
                if (exited && exitCode(child) == expectedCode) {
                    joinedAtTheEnd(child); // it joined in time to hear the end after all
                    continue;
                }
                if (!exited) {
                    child.process.destroyForcibly();
                    try {
                        child.process.waitFor(1, TimeUnit.SECONDS); // stopped means gone: reaped, not only signalled
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                out.println("divvy run: " + child.name() + ", started by --join-at, had not joined when the computation "
                    + "ended; " + (exited ? "it exited with " + describeExit(child.process.exitValue()) : "stopped it"));
                continue;
            }
            if (!exited) {
                problems.add("local " + child.name() + " still running " + timeoutMs + " ms after the end of the computation");
                continue;
            }
            child.pump.awaitEnd(1000);
            final int code = exitCode(child);
            if (code != expectedCode) {
                problems.add("local " + child.name() + " exited with " + describeExit(code) + ", expected " + expectedCode);
            }
        }
        return problems;
    }

    /**
     * The run's last line, once {@link #awaitExits} found no problem: {@code all 3 local nodes ended with exit code
     * 0}, with deaths {@code all 2 surviving local nodes ended with exit code 0; node 2 died during the run}, with
     * leaves {@code all 2 remaining local nodes ended with exit code 0; node 2 left during the run}.
     * Node 0, this process, is one of the local nodes.
     */
    public String summary(final int code) {
        final List<Integer> died = new ArrayList<>();
        final List<Integer> left = new ArrayList<>();
        final List<Integer> unjoined = new ArrayList<>();
        for (final Child child : children) {
            if (endedDuringRun(child)) {
                (child.leaving ? left : died).add(child.index);
            } else if (isUnjoinedAtEnd(child)) {
                unjoined.add(child.index);
            }
        }
        final int surviving = children.size() + 1 - died.size() - left.size() - unjoined.size();
        final StringBuilder line = new StringBuilder("all " + surviving
            + (!left.isEmpty() ? " remaining" : died.isEmpty() ? "" : " surviving") + " local nodes ended with exit code "
            + code);
        if (!died.isEmpty()) {
            line.append("; ").append(nodes(died)).append(" died during the run");
        }
        if (!left.isEmpty()) {
            line.append("; ").append(nodes(left)).append(" left during the run");
        }
        if (!unjoined.isEmpty()) {
            line.append("; ").append(nodes(unjoined)).append(" had not joined when the computation ended");
        }
        return line.toString();
    }

    /** {@code node 2}, {@code nodes 1 and 2}, {@code nodes 1, 2 and 3}. */
    private static String nodes(final List<Integer> indexes) {
        if (indexes.size() == 1) {
            return "node " + indexes.get(0);
        }
        final List<String> all = indexes.stream().map(String::valueOf).toList();
        return "nodes " + String.join(", ", all.subList(0, all.size() - 1)) + " and " + all.get(all.size() - 1);
    }

    /**
     * Ends every child still alive (SIGKILL, by process handle), waits briefly for each, and deletes the
     * Aeron directories the dead ones left.
     */
    @Override
    public void close() {
        synchronized (this) {
            phase = Phase.ENDING;
        }
        for (final Child child : children) {
            if (child.process.isAlive()) {
                child.process.destroyForcibly();
            }
        }
        for (final Child child : children) {
            try {
                if (child.process.waitFor(5, TimeUnit.SECONDS)) {
                    child.deleteAeronDir(out);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The exit of a process in words: {@code "exit code 1"}, {@code "exit code 137 (killed by signal 9, SIGKILL)"}. */
    public static String describeExit(final int code) {
        if (isSignal(code)) {
            final String name = signalName(code - SIGNAL_EXIT_BASE);
            return "exit code " + code + " (killed by signal " + (code - SIGNAL_EXIT_BASE)
                + (name.isEmpty() ? "" : ", " + name) + ")";
        }
        return "exit code " + code;
    }

    /** A death in few words: {@code "SIGKILL (exit 137)"}, {@code "signal 7 (exit 135)"}, {@code "exit code 1"}. */
    public static String describeDeath(final int code) {
        if (isSignal(code)) {
            final String name = signalName(code - SIGNAL_EXIT_BASE);
            return (name.isEmpty() ? "signal " + (code - SIGNAL_EXIT_BASE) : name) + " (exit " + code + ")";
        }
        return "exit code " + code;
    }

    private static boolean isSignal(final int code) {
        return code > SIGNAL_EXIT_BASE && code < SIGNAL_EXIT_BASE + 64;
    }

    private static String signalName(final int signal) {
        return switch (signal) {
            case 9 -> "SIGKILL";
            case 15 -> "SIGTERM";
            case 6 -> "SIGABRT";
            case 11 -> "SIGSEGV";
            default -> "";
        };
    }

    /** The process id of local node {@code index}, if it was started. */
    public Optional<Long> pid(final int index) {
        return children.stream().filter(c -> c.index == index).findFirst().map(c -> c.process.pid());
    }

    private synchronized boolean endedDuringRun(final Child child) {
        return child.endedDuringRun;
    }

    private synchronized boolean isUnjoinedAtEnd(final Child child) {
        return child.unjoinedAtEnd;
    }

    private synchronized void joinedAtTheEnd(final Child child) {
        child.unjoinedAtEnd = false;
    }

    private void onExit(final Child child) {
        if (child.driversNamedByPid) {
            // one of several nodes of the process: its own end line, if any, comes first (the node ended by itself)
            child.pump.awaitEnd(1000);
            if (endedByItself(child)) {
                child.deleteAeronDir(out);
                return;
            }
        }
        // Its node id may still be in the output not yet copied: told at once if known, else once the pump ended.
        final boolean told = tellExitDuringRun(child);
        child.pump.awaitEnd(1000);
        if (!told) {
            tellExitDuringRun(child);
        }
        synchronized (this) {
            switch (phase) {
                case JOINING -> death.complete("local " + child.name() + " died with "
                    + describeExit(child.process.exitValue()) + " before the computation ended");
                case RUNNING -> {
                    child.endedDuringRun = true;
                    child.leaving = leftGracefully(child);
                }
                case ENDING -> {
                    // an exit node 0 asked for, unless expectExits() found it dead or killed already
                }
            }
            if (!child.endedDuringRun) {
                return;
            }
            // under the lock, so after the line of the kill that caused it
            printEndDuringRun(child);
        }
        child.deleteAeronDir(out);
    }

    /** Under the lock: the line of a child that ended while the run was under way. */
    private void printEndDuringRun(final Child child) {
        out.println("divvy run: " + child.name() + (child.leaving
            ? " left (" + describeDeath(exitCode(child)) + "); the run goes on, the other nodes reuse what "
                + "it handed over and redo the rest"
            : " died with " + describeDeath(exitCode(child)) + "; the run goes on, the other nodes recover its work"));
    }

    /**
     * One node of a process of several printed that it ended ({@link WorkerNode#endedLine}), with {@code code}: before
     * the run, the run cannot start; during it, the node ended alone (the registry declared it dead, or ordered it out)
     * and the run survives it, as a process's death; at the end, its code is what {@link #awaitExits} judges. A node
     * this launcher stopped on purpose is judged by its process's exit, as any.
     */
    private void onNodeEnded(final Child child, final int code) {
        final boolean tell;
        synchronized (this) {
            if (child.stoppedOnPurpose || child.ended()) {
                return;
            }
            child.endCode = code;
            tell = phase == Phase.RUNNING;
            switch (phase) {
                case JOINING -> death.complete("local " + child.name() + " ended with " + describeExit(code)
                    + " before the computation ended");
                case RUNNING -> {
                    child.endedDuringRun = true;
                    child.leaving = code == 0; // it left on the registry's order (divvy leave)
                    printEndDuringRun(child);
                }
                case ENDING -> {
                    // its end with the computation's: awaitExits judges its code
                }
            }
        }
        if (tell) {
            exitedDuringRun.exited(child.nodeId, code == 0);
        }
    }

    /** Whether the child is a joined node alive and not stopped: one the registry may give a root to. */
    private static boolean isLive(final Child child) {
        return child.joined() && !child.stoppedOnPurpose && !child.ended() && child.process.isAlive();
    }

    private synchronized boolean endedByItself(final Child child) {
        return child.ended();
    }

    /** The child's exit code: its own end line's, if it printed one, else its process's (which has exited). */
    private static int exitCode(final Child child) {
        final int code = child.endCode;
        return code >= 0 ? code : child.process.exitValue();
    }

    /**
     * Whether a child that ended mid-run left gracefully: exit 0 (it left on the registry's order, divvy leave), or
     * the exit of a SIGTERM this launcher sent to make it leave (its exit hook left, then the JVM ended with 143). A
     * child asked to leave that ended any other way (killed, crashed while leaving) died.
     */
    private boolean leftGracefully(final Child child) {
        final int code = exitCode(child);
        return code == 0 || (child.leaving && code == SIGNAL_EXIT_BASE + 15);
    }

    /** Tells {@link #exitedDuringRun} of the child's exit if the run is under way and its node id is known. */
    private boolean tellExitDuringRun(final Child child) {
        final boolean tell;
        final boolean afterLeaving;
        synchronized (this) {
            tell = phase == Phase.RUNNING && child.joined();
            afterLeaving = leftGracefully(child);
        }
        if (tell) {
            exitedDuringRun.exited(child.nodeId, afterLeaving);
        }
        return tell;
    }

    /** One child: its process and how it ended. The flags are guarded by the {@link ChildNodes}' lock. */
    private static final class Child {
        final int index;
        final String site;
        final Process process;
        final Path aeronDir;
        /** Started once the run was under way ({@code --join-at}). */
        final boolean lateJoiner;
        volatile OutputPump pump;
        /**
         * The runtime's id of the node (given in join order, so not its index), once it printed
         * {@link WorkerNode#joinedLine}: it has joined. -1 before. Written by its output pump.
         */
        volatile int nodeId = -1;
        /** Killed or asked to leave by {@code --kill-at}, {@code --kill-site}, {@code --leave-at}, {@code --leave-site}. */
        boolean stoppedOnPurpose;
        /** Asked to leave (SIGTERM), not killed: its exit is a graceful leave. */
        boolean leaving;
        /** It died while the run was under way: survived, not an error. */
        boolean endedDuringRun;
        /** A late joiner that had not joined when the computation ended. */
        boolean unjoinedAtEnd;
        /**
         * The exit code its own end line gave ({@link WorkerNode#endedLine}, a node of a process of several that ended
         * by itself), -1 if none. Written under the {@link ChildNodes}' lock.
         */
        volatile int endCode = -1;
        /** It shares its process with other nodes, whose drivers named their directories for the process's pid. */
        boolean driversNamedByPid;
        /** Guarded by this child: its Aeron directory was deleted. */
        private boolean aeronDirDeleted;

        Child(final int index, final String site, final Process process, final Path aeronDir, final boolean lateJoiner) {
            this.index = index;
            this.site = site;
            this.process = process;
            this.aeronDir = aeronDir;
            this.lateJoiner = lateJoiner;
        }

        /** {@code node 2 (pid 1234, site A, node id 1)}: the index, and the runtime's id the node's logs use once known. */
        String name() {
            return "node " + index + " (pid " + process.pid() + ", site " + site
                + (nodeId >= 0 ? ", node id " + nodeId : "") + ")";
        }

        boolean joined() {
            return nodeId >= 0;
        }

        /** It printed its end line: the node ended though its process may live on. */
        boolean ended() {
            return endCode >= 0;
        }

        /**
         * Deletes the Aeron directory the dead child left, once; a process of several nodes named its drivers'
         * directories for its pid, which the runtime removes as any dead process's leftovers.
         */
        synchronized void deleteAeronDir(final PrintStream out) {
            if (driversNamedByPid && !aeronDirDeleted && !process.isAlive()) {
                aeronDirDeleted = true;
                DriverDirectories.removeStale(DriverDirectories.base());
                return;
            }
            if (aeronDir == null || aeronDirDeleted || !Files.exists(aeronDir)) {
                return;
            }
            aeronDirDeleted = true;
            try (var paths = Files.walk(aeronDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.deleteIfExists(path);
                    } catch (final IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (final IOException | UncheckedIOException e) {
                out.println("divvy run: could not delete the Aeron directory " + aeronDir + " of a dead node: "
                    + e.getMessage());
            }
        }
    }
}
