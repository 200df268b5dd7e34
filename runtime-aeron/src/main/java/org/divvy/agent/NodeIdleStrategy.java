package org.divvy.agent;

import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.IdleStrategy;
import org.divvy.DivvyException;

/**
 * The network agent's idle strategy. Awake it is a backoff (spin, yield, then park from 1 µs doubling
 * to {@code maxParkNs}): a steal round trip while a computation runs costs one short wake-up. In
 * {@link DeepIdle deep idle} it parks {@code deepParkNs} after every cycle that found nothing, and runs
 * again at once after a cycle that did work (a heartbeat, a failed steal: work for the agent, not for the
 * node, so it stays in deep idle), which cuts the duty cycles of an idle node, each stepping the embedded
 * driver and client conductor, from ~1000/s to ~20/s without letting inbound frames queue up.
 *
 * <p>Agent thread only. {@link #parkNsFor(int)} is the pure decision; {@link #idle(int)} acts on it.
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
    private int spins;
    private int yields;
    private long parkNs;

    public NodeIdleStrategy(final DeepIdle deepIdle, final long maxParkNs, final long deepParkNs) {
        if (maxParkNs < MIN_PARK_NS || deepParkNs < maxParkNs) {
            throw new DivvyException("idle maxParkNs=" + maxParkNs + ", deepParkNs=" + deepParkNs +
                ", must be " + MIN_PARK_NS + " <= maxParkNs <= deepParkNs");
        }
        this.deepIdle = deepIdle;
        this.maxParkNs = maxParkNs;
        this.deepParkNs = deepParkNs;
    }

    /** What to do after a duty cycle that did {@code workCount}: {@link #SPIN}, {@link #YIELD} or park that many ns. */
    long parkNsFor(final int workCount) {
        if (deepIdle.isDeep()) {
            reset(); // on leaving deep idle the agent starts hot again
            // A cycle that did work runs again at once: each cycle polls a bounded number of frames, so
            // parking after a busy cycle would let a backlog of inbound frames (steal requests, member
            // lists, the registry's heartbeats) grow until the registry or this node times the other out.
            return workCount > 0 ? SPIN : deepParkNs;
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

    @Override
    public void idle(final int workCount) {
        final long ns = parkNsFor(workCount);
        if (ns == SPIN) {
            if (workCount <= 0) {
                Thread.onSpinWait();
            }
        } else if (ns == YIELD) {
            Thread.yield();
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
