package org.divvy.node;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.NanoClock;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.protocol.FrameCounters;
import org.divvy.scheduling.Scheduler;
import org.divvy.stealing.JobTypeRegistry;
import org.divvy.transport.Transport;

/**
 * A node's network half stepped on the test's thread (its agent runs no thread of its own), over a
 * given transport and clock, on top of a real one-worker scheduler that stays idle unless a test gives it
 * work. Reading its member table between steps is safe: the test thread is its agent thread.
 */
final class SteppedNode implements AutoCloseable {
    final Scheduler scheduler;
    final NetworkNode network;
    final FrameCounters counters;
    /** What the agent caught; {@link #close()} fails the test if any. */
    final List<Throwable> errors = new ArrayList<>();
    private boolean stopped;

    SteppedNode(final NodeConfig config, final Transport transport, final FrameCounters counters, final NanoClock clock,
        final long seed) {
        this(config, transport, counters, clock, seed, JobTypeRegistry.load(null));
    }

    /** With {@code jobTypes} instead of the class path's: another build of the application. */
    SteppedNode(final NodeConfig config, final Transport transport, final FrameCounters counters, final NanoClock clock,
        final long seed, final JobTypeRegistry jobTypes) {
        this.counters = counters;
        scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "stepped-" + transport.endpoint());
        scheduler.start();
        // The worker reports itself out of work once it found nothing to do; wait for that (real time, bounded).
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!scheduler.isOutOfWork()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new DivvyException("the worker of " + transport.endpoint() + " did not go idle");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        network = NetworkNode.builder(config, scheduler).transport(transport, counters).clock(clock).seed(seed)
            .jobTypes(jobTypes).errorHandler(errors::add).build();
        network.agent().onStart();
    }

    /** One duty cycle, unless the node is stopped (paused or crashed). */
    int doWork() {
        return stopped ? 0 : network.agent().doWork();
    }

    /** No more duty cycles until {@link #resume()}: to its peers the node falls silent. */
    void pause() {
        stopped = true;
    }

    void resume() {
        stopped = false;
    }

    int selfId() {
        return network.members().selfId();
    }

    @Override
    public void close() {
        network.crash();
        scheduler.close();
        if (!errors.isEmpty()) {
            throw new AssertionError("the agent of node " + selfId() + " caught errors: " + errors, errors.get(0));
        }
    }
}
