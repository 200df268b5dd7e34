package org.divvy.transport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;

/**
 * The idle strategy of the embedded driver's one own thread, its async executor, which resolves the endpoint of every
 * new channel: a publication opened to a peer waits for it, and so does the network agent, which opens publications
 * synchronously (stepping the driver until the publication is ready). Idle, the thread backs off from 1 µs to 50 ms
 * parks, so an idle node pays ~0.1% of a core for it (1 ms parks cost ~2%); but a publication opened while it was in
 * a 50 ms park waited up to 50 ms, and a node whose idle publications were closed paid that on the next frame to
 * each peer (writes to 64 idle replicas: likely most of the idle cases' slow writes, 23–60 ms at 0 and 10 ms). {@link #expectWork()}, called
 * just before a publication is opened, ends the current park and keeps the thread on short parks for
 * {@link #HOT_NS}, long enough for the task to arrive (the driver's conductor queues it within the same call).
 *
 * <p>{@link #idle} runs on the executor's thread; {@link #expectWork()} on any thread.
 */
final class ResolverIdleStrategy implements IdleStrategy {
    /** How long the thread parks briefly after {@link #expectWork()}: 5 ms. */
    static final long HOT_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Its park while hot: 10 µs asked (with Linux's timer slack some 60 µs). */
    static final long HOT_PARK_NS = TimeUnit.MICROSECONDS.toNanos(10);

    private final long minParkNs;
    private final long maxParkNs;
    private volatile Thread thread;
    /** Until when (System.nanoTime) the thread parks only {@link #HOT_PARK_NS}. */
    private volatile long hotUntilNs;
    private final AtomicLong expected = new AtomicLong();
    private final long hotNs;
    private long parkNs;

    ResolverIdleStrategy(final long minParkNs, final long maxParkNs) {
        this(minParkNs, maxParkNs, HOT_NS);
    }

    /** Hot from the start (the node's own subscription is the first task), for {@code hotNs} after each announcement. */
    ResolverIdleStrategy(final long minParkNs, final long maxParkNs, final long hotNs) {
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.hotNs = hotNs;
        this.hotUntilNs = System.nanoTime() + hotNs;
    }

    /** A task is about to be queued (a publication is being opened): wake the thread and keep it ready for a while. */
    void expectWork() {
        hotUntilNs = System.nanoTime() + hotNs;
        expected.incrementAndGet();
        final Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Whether the thread parks only briefly now (work was announced, or the driver started, less than the hot time ago). */
    boolean isHot() {
        return System.nanoTime() - hotUntilNs < 0;
    }

    /** How many times work was announced (tests). */
    long expected() {
        return expected.get();
    }

    @Override
    public void idle(final int workCount) {
        if (thread == null) {
            thread = Thread.currentThread();
        }
        if (workCount > 0) {
            parkNs = 0;
            return;
        }
        if (isHot()) {
            parkNs = 0; // after the hot window the backoff starts again from its shortest park, not a 50 ms one
            LockSupport.parkNanos(HOT_PARK_NS);
            return;
        }
        parkNs = parkNs == 0 ? minParkNs : Math.min(maxParkNs, parkNs * 2);
        LockSupport.parkNanos(parkNs);
    }

    @Override
    public void idle() {
        idle(0);
    }

    @Override
    public void reset() {
        parkNs = 0;
    }

    @Override
    public String alias() {
        return "divvy-resolver";
    }
}
