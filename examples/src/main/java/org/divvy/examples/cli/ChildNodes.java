package org.divvy.examples.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;

/**
 * The child JVMs {@code divvy run} started on this machine: starts them, copies their output with a
 * {@code [node k]} prefix, and reports the first one that exits while it should not ({@link #death()}),
 * so the run ends with an error naming it instead of waiting for it. {@link #close()} ends every child
 * still alive, by its own process handle (never by name), and deletes the Aeron directory a dead child
 * left behind (a killed node cannot delete its own; each one holds tens of MB of /dev/shm).
 *
 * <p>Used by the thread that runs the command; the exit callbacks only complete {@link #death()}.
 */
public final class ChildNodes implements AutoCloseable {
    /** Exit code of a JVM killed by signal N is 128 + N. */
    private static final int SIGNAL_EXIT_BASE = 128;

    private final PrintStream out;
    private final List<Child> children = new ArrayList<>();
    private final CompletableFuture<String> death = new CompletableFuture<>();
    private volatile boolean exitsExpected;

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
     * (null: unknown); {@link #close()} deletes it once the child is dead. {@code environment} is added to
     * the child's (this process's) environment.
     */
    public void start(final int index, final String site, final List<String> command, final Path aeronDir,
        final Map<String, String> environment) {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        final Process process;
        try {
            process = builder.start();
        } catch (final IOException e) {
            throw new DivvyException("cannot start local node " + index + " (" + command.get(0) + "): "
                + e.getMessage());
        }
        final OutputPump pump = OutputPump.start(process.getInputStream(), "[node " + index + "] ", out);
        final Child child = new Child(index, site, process, pump, aeronDir);
        children.add(child);
        process.onExit().thenAccept(p -> onExit(child));
    }

    /** Completes with a message naming the first child that exited before {@link #expectExits()}. */
    public CompletableFuture<String> death() {
        return death;
    }

    /** From now on children may exit: the master has ended the computation. */
    public void expectExits() {
        exitsExpected = true;
    }

    /** The number of children started. */
    public int size() {
        return children.size();
    }

    /**
     * Waits up to {@code timeoutMs} in all for every child to exit and returns a line per child whose
     * exit code is not {@code expectedCode} (or that is still running); empty when all exited as expected.
     */
    public List<String> awaitExits(final int expectedCode, final long timeoutMs) {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        final List<String> problems = new ArrayList<>();
        for (final Child child : children) {
            final long remainingMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
            try {
                if (!child.process.waitFor(remainingMs, TimeUnit.MILLISECONDS)) {
                    problems.add(child.name() + " still running " + timeoutMs + " ms after the end of the computation");
                    continue;
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                problems.add(child.name() + ": interrupted while waiting for it to exit");
                continue;
            }
            child.pump.awaitEnd(1000);
            final int code = child.process.exitValue();
            if (code != expectedCode) {
                problems.add(child.name() + " exited with " + describeExit(code) + ", expected " + expectedCode);
            }
        }
        return problems;
    }

    /**
     * Ends every child still alive (SIGKILL, by process handle), waits briefly for each, and deletes the
     * Aeron directories the dead ones left.
     */
    @Override
    public void close() {
        exitsExpected = true;
        for (final Child child : children) {
            if (child.process.isAlive()) {
                child.process.destroyForcibly();
            }
        }
        for (final Child child : children) {
            try {
                if (child.process.waitFor(5, TimeUnit.SECONDS) && child.aeronDir != null) {
                    deleteRecursively(child.aeronDir);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void deleteRecursively(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (final IOException | UncheckedIOException e) {
            out.println("divvy run: could not delete the Aeron directory " + dir + " of a dead node: "
                + e.getMessage());
        }
    }

    /** The exit of a process in words: {@code "exit code 1"}, {@code "exit code 137 (killed by signal 9, SIGKILL)"}. */
    public static String describeExit(final int code) {
        if (code > SIGNAL_EXIT_BASE && code < SIGNAL_EXIT_BASE + 64) {
            final int signal = code - SIGNAL_EXIT_BASE;
            final String name = switch (signal) {
                case 9 -> ", SIGKILL";
                case 15 -> ", SIGTERM";
                case 6 -> ", SIGABRT";
                case 11 -> ", SIGSEGV";
                default -> "";
            };
            return "exit code " + code + " (killed by signal " + signal + name + ")";
        }
        return "exit code " + code;
    }

    /** The process id of local node {@code index}, if it was started. */
    public Optional<Long> pid(final int index) {
        return children.stream().filter(c -> c.index == index).findFirst().map(c -> c.process.pid());
    }

    private void onExit(final Child child) {
        if (!exitsExpected) {
            child.pump.awaitEnd(1000);
            death.complete(child.name() + " died with " + describeExit(child.process.exitValue())
                + " before the computation ended");
        }
    }

    private record Child(int index, String site, Process process, OutputPump pump, Path aeronDir) {
        String name() {
            return "local node " + index + " (pid " + process.pid() + ", site " + site + ")";
        }
    }
}
