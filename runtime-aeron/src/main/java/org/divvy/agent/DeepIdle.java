package org.divvy.agent;

import org.divvy.DivvyException;

/**
 * Whether a node is in deep idle: nothing to do for {@code enterAfterNs} (the agent's cycles reported no
 * work for the computation and the node was quiescent: no local work, no job out on a thief or held for an
 * owner, nothing queued to send; failed steals and heartbeats do not count as something to do). In deep idle the agent parks longer and steals are paced more slowly, so an idle
 * node costs well under 1% of a core; any activity ends it at once. Pure: the caller gives the time.
 *
 * <p>Owned by the agent thread (its duty cycle and its idle strategy run on it).
 */
public final class DeepIdle {
    private final long enterAfterNs;
    private long lastActivityNs;
    private boolean started;
    private boolean deep;
    /** A run this node belongs to is active (its own, or one a live peer announced and has not ended). */
    private volatile boolean inRun;
    private volatile long entries;

    /** @param enterAfterNs time without activity before deep idle starts; >= 1. */
    public DeepIdle(final long enterAfterNs) {
        if (enterAfterNs < 1) {
            throw new DivvyException("deep idle enterAfterNs=" + enterAfterNs + ", must be >= 1");
        }
        this.enterAfterNs = enterAfterNs;
    }

    /** Something to do at {@code nowNs}: leaves deep idle now; returns whether it was in deep idle. */
    boolean onActivity(final long nowNs) {
        final boolean wasDeep = deep;
        deep = false;
        started = true;
        lastActivityNs = nowNs;
        return wasDeep;
    }

    /** Nothing to do at {@code nowNs}: enters deep idle once nothing happened for the threshold; returns whether deep. */
    boolean onQuiet(final long nowNs) {
        if (!started) {
            started = true;
            lastActivityNs = nowNs;
        }
        if (!deep && nowNs - lastActivityNs >= enterAfterNs) {
            deep = true;
            entries++;
        }
        return deep;
    }

    public boolean isDeep() {
        return deep;
    }

    /**
     * Whether a run this node belongs to is active: then the agent parks only briefly in deep idle
     * ({@code deepIdleRunParkMs}), since with a standalone driver a frame of the run (a shared-object write, a steal
     * request) cannot wake a parked agent (with an embedded driver a datagram ends the park: {@code DatagramWait});
     * between runs it parks the full {@code deepIdleParkMs}. Set by the lifecycle's agent side.
     */
    public void inRun(final boolean active) {
        inRun = active;
    }

    /** Any thread (written by the agent thread only, on a run's start or end). */
    public boolean isInRun() {
        return inRun;
    }

    /** How many times deep idle started (for tests and statistics). */
    long entries() {
        return entries;
    }
}
