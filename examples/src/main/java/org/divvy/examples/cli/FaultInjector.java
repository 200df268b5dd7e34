package org.divvy.examples.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import org.divvy.DivvyException;
import org.divvy.examples.cli.FaultSchedule.Event;
import org.divvy.examples.cli.FaultSchedule.JoinNodes;
import org.divvy.examples.cli.FaultSchedule.Stop;
import org.divvy.examples.cli.FaultSchedule.StopMaster;
import org.divvy.examples.cli.FaultSchedule.StopNode;
import org.divvy.examples.cli.FaultSchedule.StopSite;

/**
 * Does a {@link FaultSchedule} while a {@code divvy run} computes: one daemon thread waits for each event's time,
 * counted from the moment the app started running, then kills local child nodes, asks them to leave, or starts new
 * ones, and prints one line per event with the time it happened ({@code divvy run: t=2.00 s: killed node 2 (pid
 * 1234, site A) as --kill-at 2@2 asked}). A class of its own so that {@link NodeZeroRun} stays a sequence of steps.
 *
 * <p>{@link #close()}, when the run ends, cancels the events not yet due and says which did not happen; an event
 * under way is finished first, so no node starts after node 0 ended the computation.
 */
final class FaultInjector implements AutoCloseable {
    /**
     * Starts local child nodes {@code index} to {@code index + count - 1} in {@code site}, in one process; throws
     * {@link DivvyException} if it cannot.
     */
    @FunctionalInterface
    interface NodeStarter {
        void start(int index, int count, String site);

        /**
         * Local nodes {@code first} to {@code end - 1} split into the processes that hold them: consecutive nodes of
         * one site ({@code siteOf}), {@code nodesPerProcess} at most; each as its first node and its count.
         */
        static List<int[]> processes(final int first, final int end, final int nodesPerProcess,
            final IntFunction<String> siteOf) {
            final List<int[]> processes = new ArrayList<>();
            for (int k = first; k < end; ) {
                final String site = siteOf.apply(k);
                int count = 1;
                while (count < nodesPerProcess && k + count < end && siteOf.apply(k + count).equals(site)) {
                    count++;
                }
                processes.add(new int[] {k, count});
                k += count;
            }
            return processes;
        }
    }

    /** How long {@link #close()} waits for an event under way (a JVM being started). */
    private static final long CLOSE_TIMEOUT_MS = 10_000;

    private final List<Event> events;
    private final ChildNodes children;
    private final NodeStarter starter;
    /** The most nodes one started process holds ({@code --nodes-per-process}). */
    private final int nodesPerProcess;
    private final PrintStream out;
    /** When the app started running (System.nanoTime): time 0 of the events. */
    private final long startNs;
    private final Object lock = new Object();
    /** Does the events; null when there are none. */
    private final Thread thread;
    /** Guarded by {@link #lock}: the run ended, no further event starts. */
    private boolean closed;
    /** Guarded by {@link #lock}: how many events, in order, are done. */
    private int done;

    private FaultInjector(final FaultSchedule schedule, final ChildNodes children, final NodeStarter starter,
        final int nodesPerProcess, final PrintStream out, final long startNs) {
        this.events = schedule.events();
        this.children = children;
        this.starter = starter;
        this.nodesPerProcess = nodesPerProcess;
        this.out = out;
        this.startNs = startNs;
        if (events.isEmpty()) {
            thread = null;
        } else {
            thread = new Thread(this::runEvents, "divvy-run-faults");
            thread.setDaemon(true);
        }
    }

    /**
     * Starts doing {@code schedule}, its times counted from now: call it as the app starts running. Nodes a {@code
     * --join-at} starts go {@code nodesPerProcess} to a process at most.
     */
    static FaultInjector start(final FaultSchedule schedule, final ChildNodes children, final NodeStarter starter,
        final int nodesPerProcess, final PrintStream out) {
        final FaultInjector injector = new FaultInjector(schedule, children, starter, nodesPerProcess, out,
            System.nanoTime());
        if (injector.thread != null) {
            injector.thread.start();
        }
        return injector;
    }

    /** Cancels the events not yet due (after the one under way) and prints those that did not happen. */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
        try {
            thread.join(CLOSE_TIMEOUT_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        final int doneBefore;
        synchronized (lock) {
            doneBefore = done;
        }
        if (doneBefore < events.size()) {
            final List<String> notDone = new ArrayList<>();
            for (final Event event : events.subList(doneBefore, events.size())) {
                notDone.add(event.describe() + " (" + event.request() + ")");
            }
            out.println("divvy run: the run ended at t=" + FaultSchedule.seconds(elapsedMs()) + " s, before "
                + String.join("; ", notDone) + ": not done");
        }
    }

    private void runEvents() {
        for (int i = 0; i < events.size(); i++) {
            final Event event = events.get(i);
            if (!awaitTimeOf(event)) {
                return;
            }
            try {
                perform(event);
            } catch (final RuntimeException e) {
                report(event.request() + " failed: " + e.getMessage());
            }
            synchronized (lock) {
                done = i + 1;
            }
        }
    }

    /** Waits until {@code event} is due; false if the run ended first. */
    private boolean awaitTimeOf(final Event event) {
        final long dueNs = startNs + TimeUnit.MILLISECONDS.toNanos(event.atMs());
        synchronized (lock) {
            try {
                long waitNs;
                while (!closed && (waitNs = dueNs - System.nanoTime()) > 0) {
                    TimeUnit.NANOSECONDS.timedWait(lock, waitNs);
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return !closed;
        }
    }

    /** Does {@code event} and prints what happened. A kill is printed just before it, so before the death it causes. */
    private void perform(final Event event) {
        if (event instanceof StopNode stop) {
            if (children.stop(stop.stop(), stop.node(), names -> report(done(stop.stop()) + " " + String.join(", ", names) + " as "
                + stop.request() + " asked")).isEmpty()) {
                report(stop.request() + ": node " + stop.node() + " is not running (already dead or gone); nothing to "
                    + "stop");
            }
            return;
        }
        if (event instanceof StopMaster stop) {
            if (children.stopExpectedMaster(stop.stop(), names -> report(done(stop.stop()) + " the master, "
                + String.join(", ", names) + ", as " + stop.request() + " asked")).isEmpty()) {
                report(stop.request() + ": no joined local child is alive, so node 0 is (or will be) the master; "
                    + "nothing to stop");
            }
            return;
        }
        if (event instanceof StopSite stop) {
            if (children.stopSite(stop.stop(), stop.site(), names -> report(done(stop.stop()) + " "
                + String.join(", ", names) + " as " + stop.request() + " asked")).isEmpty()) {
                report(stop.request() + ": no node of site " + stop.site() + " is running; nothing to stop");
            }
            return;
        }
        final JoinNodes join = (JoinNodes)event;
        final List<String> started = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        for (final int[] process : NodeStarter.processes(join.firstNode(), join.firstNode() + join.count(),
            nodesPerProcess, k -> join.site())) {
            final int index = process[0];
            final int count = process[1];
            try {
                starter.start(index, count, join.site());
                for (int k = index; k < index + count; k++) {
                    started.add("node " + k + " (pid " + children.pid(k).orElse(-1L) + ", site " + join.site() + ")");
                }
            } catch (final DivvyException e) {
                failed.add(e.getMessage());
            }
        }
        final String what = started.isEmpty() ? "started no node as " + join.request() + " asked"
            : "started " + String.join(", ", started) + " as " + join.request() + " asked; "
                + (started.size() == 1 ? "it joins" : "they join") + " the running computation";
        report(failed.isEmpty() ? what : what + "; " + String.join("; ", failed));
    }

    /** What the line of a stop says was done: {@code killed}, {@code asked to leave (SIGTERM)}. */
    private static String done(final Stop stop) {
        return stop == Stop.KILL ? "killed" : "asked to leave (SIGTERM)";
    }

    /** {@code divvy run: t=2.00 s: what}, the time counted from the start of the app. */
    private void report(final String what) {
        out.println("divvy run: t=" + FaultSchedule.seconds(elapsedMs()) + " s: " + what);
    }

    private long elapsedMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }
}
