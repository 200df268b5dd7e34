package org.divvy.agent;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.divvy.DivvyException;
import org.divvy.transport.DatagramWait;

/**
 * The network agent's idle strategy. Awake it is a backoff (spin, yield, then park from 1 µs doubling
 * to {@code maxParkNs}): a steal round trip while a computation runs costs one short wake-up. In
 * {@link DeepIdle deep idle} it parks {@code deepParkNs} after every cycle that found nothing ({@code runParkNs}
 * while a run this node belongs to is active, short because with a standalone driver a datagram cannot wake a
 * parked agent), and runs
 * again at once after a cycle that did work (a heartbeat, a failed steal: work for the agent, not for the
 * node, so it stays in deep idle), which cuts the duty cycles of an idle node, each stepping the embedded
 * driver and client conductor, from ~1000/s to ~20/s without letting inbound frames queue up. With a
 * {@link DatagramWait} (an embedded driver) a deep-idle park ends when a datagram reaches one of the driver's
 * sockets, so a frame does not wait out the park; awake parks stay plain parks (at most 1 ms).
 *
 * <p>Agent thread only, but for {@link #stopParking()}. {@link #parkNsFor(int)} is the pure decision;
 * {@link #idle(int)} acts on it.
 */
public final class NodeIdleStrategy implements IdleStrategy {
    /** {@link #parkNsFor} result: spin once. */
    static final long SPIN = -1;
    /** {@link #parkNsFor} result: yield once. */
    static final long YIELD = 0;
    static final int MAX_SPINS = 10;
    static final int MAX_YIELDS = 10;
    static final long MIN_PARK_NS = 1_000;
    /**
     * The longest park between duty cycles while awake (1 ms): how late a steal request is answered at
     * most while a computation runs. Whole milliseconds of deep-idle park are never shorter.
     */
    public static final long AWAKE_MAX_PARK_NS = 1_000_000;

    private final DeepIdle deepIdle;
    private final long maxParkNs;
    private final long deepParkNs;
    private final long runParkNs;
    /** Ends deep-idle parks on a datagram; null: they are plain parks. */
    private final DatagramWait datagramWait;
    /** Set when the agent is being stopped: it no longer parks, so it sees the stop at once. */
    private volatile boolean stopParking;
    private int spins;
    private int yields;
    private long parkNs;

    /** Deep idle parks {@code deepParkNs} in a run too. */
    public NodeIdleStrategy(final DeepIdle deepIdle, final long maxParkNs, final long deepParkNs) {
        this(deepIdle, maxParkNs, deepParkNs, deepParkNs);
    }

    /** @param runParkNs the deep-idle park while a run this node belongs to is active; at most {@code deepParkNs}. */
    public NodeIdleStrategy(final DeepIdle deepIdle, final long maxParkNs, final long deepParkNs, final long runParkNs) {
        this(deepIdle, maxParkNs, deepParkNs, runParkNs, null);
    }

    /** @param datagramWait what a deep-idle park waits in, so a datagram ends it; null: a plain park. */
    public NodeIdleStrategy(final DeepIdle deepIdle, final long maxParkNs, final long deepParkNs, final long runParkNs,
        final DatagramWait datagramWait) {
        if (maxParkNs < MIN_PARK_NS || runParkNs < maxParkNs || deepParkNs < runParkNs) {
            throw new DivvyException("idle maxParkNs=" + maxParkNs + ", runParkNs=" + runParkNs + ", deepParkNs=" +
                deepParkNs + ", must be " + MIN_PARK_NS + " <= maxParkNs <= runParkNs <= deepParkNs");
        }
        this.deepIdle = deepIdle;
        this.maxParkNs = maxParkNs;
        this.deepParkNs = deepParkNs;
        this.runParkNs = runParkNs;
        this.datagramWait = datagramWait;
    }

    /** What a deep-idle park waits in, or null. */
    DatagramWait datagramWait() {
        return datagramWait;
    }

    /** What to do after a duty cycle that did {@code workCount}: {@link #SPIN}, {@link #YIELD} or park that many ns. */
    long parkNsFor(final int workCount) {
        if (deepIdle.isDeep()) {
            reset(); // on leaving deep idle the agent starts hot again
            // A cycle that did work runs again at once: each cycle polls a bounded number of frames, so
            // parking after a busy cycle would let a backlog of inbound frames (steal requests, member
            // lists, the registry's heartbeats) grow until the registry or this node times the other out.
            if (workCount > 0) {
                return SPIN;
            }
            return deepIdle.isInRun() ? runParkNs : deepParkNs;
        }
        if (workCount > 0) {
            reset();
            return SPIN;
        }
        if (spins < MAX_SPINS) {
            spins++;
            return SPIN;
        }
        if (yields < MAX_YIELDS) {
            yields++;
            return YIELD;
        }
        final long ns = parkNs == 0 ? MIN_PARK_NS : Math.min(maxParkNs, parkNs * 2);
        parkNs = ns;
        return ns;
    }

    /**
     * From now on the agent yields instead of parking (any thread): for its stop, whose flag it reads only between
     * cycles, so a long deep-idle park would hold the stop back for that park.
     */
    void stopParking() {
        stopParking = true;
    }

    @Override
    public void idle(final int workCount) {
        if (stopParking) {
            Thread.yield();
            return;
        }
        final long ns = parkNsFor(workCount);
        if (ns == SPIN) {
            if (workCount <= 0) {
                Thread.onSpinWait();
            }
        } else if (ns == YIELD) {
            Thread.yield();
        } else if (datagramWait != null && deepIdle.isDeep()) {
            datagramWait.await(ns);
        } else {
            LockSupport.parkNanos(ns);
        }
    }

    @Override
    public void idle() {
        idle(0);
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = 0;
    }

    @Override
    public String alias() {
        return "divvy-node";
    }
}
