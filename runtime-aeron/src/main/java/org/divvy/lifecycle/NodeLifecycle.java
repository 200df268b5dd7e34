package org.divvy.lifecycle;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.divvy.DivvyException;

/**
 * A networked node's life as application threads see it: joined (with its id) or failed to join, how
 * many members are alive, whether the computation was terminated (with which exit code) or the
 * registry lost. The agent thread reports events (through {@link LifecycleHandler}); application threads
 * wait on them and ask for a run's announcement and the computation's end. One monitor: the events are few.
 */
public final class NodeLifecycle {
    /** No exit code (yet). */
    public static final int NO_CODE = Integer.MIN_VALUE;

    private final Object lock = new Object();
    private int selfId = -1;
    private String joinFailure;
    private int aliveMembers;
    private int mostAliveMembers;
    private String lostMessage;
    private volatile boolean joined;
    private volatile int terminationCode = NO_CODE;
    private volatile int terminateRequest = NO_CODE;
    private volatile boolean terminateFlushed;
    /** A run starts here: the agent thread announces it (RUN_STARTED) in its next cycle and clears this. */
    private final AtomicBoolean runStartPending = new AtomicBoolean();
    /** See {@link #requestRunResumed}. */
    private final AtomicBoolean runResumePending = new AtomicBoolean();
    /** Runs this node masters now (started with {@link #requestRunStarted}, not yet {@link #runEnded}). */
    private final AtomicInteger runsHere = new AtomicInteger();
    /** See {@link #mastering}; guarded by the lock. */
    private boolean mastering;
    /** The registry ordered this node to leave ({@code divvy leave}). */
    private volatile boolean leaveOrdered;
    /** What the node does when ordered to leave: starts its graceful leave on a thread of its own. */
    private volatile Runnable leaveAction = () -> { };

    // ---- agent thread ---------------------------------------------------------------------------

    void onJoined(final int id) {
        synchronized (lock) {
            selfId = id;
            joined = true;
            lock.notifyAll();
        }
    }

    void onJoinFailed(final String message) {
        synchronized (lock) {
            joinFailure = message;
            lock.notifyAll();
        }
    }

    void onMembers(final int alive) {
        synchronized (lock) {
            aliveMembers = alive;
            mostAliveMembers = Math.max(mostAliveMembers, alive);
            lock.notifyAll();
        }
    }

    void onLost(final String message) {
        synchronized (lock) {
            lostMessage = message;
            lock.notifyAll();
        }
    }

    void onTerminated(final int code) {
        synchronized (lock) {
            if (terminationCode == NO_CODE) {
                terminationCode = code;
            }
            lock.notifyAll();
        }
    }

    /** The registry ordered this node to leave: {@link #awaitTermination} returns, and the node starts leaving. */
    void onLeaveOrdered() {
        final Runnable action;
        synchronized (lock) {
            leaveOrdered = true;
            action = leaveAction;
            lock.notifyAll();
        }
        action.run();
    }

    void onTerminateFlushed() {
        synchronized (lock) {
            terminateFlushed = true;
            lock.notifyAll();
        }
    }

    /** Whether the registry ordered this node to leave ({@code divvy leave}); any thread. */
    public boolean isLeaveOrdered() {
        return leaveOrdered;
    }

    /**
     * What to do when the registry orders this node to leave; must not block (any thread). Run at once if the order
     * came already (between the join and this call).
     */
    public void onLeaveOrder(final Runnable action) {
        final boolean orderedAlready;
        synchronized (lock) {
            this.leaveAction = action;
            orderedAlready = leaveOrdered;
        }
        if (orderedAlready) {
            action.run();
        }
    }

    /** Whether this node joined (any thread). */
    public boolean isJoined() {
        return joined;
    }

    int terminateRequest() {
        return terminateRequest;
    }

    boolean isTerminateFlushed() {
        return terminateFlushed;
    }

    /** Why the node could not join, or null (any thread). */
    public String joinFailureOrNull() {
        synchronized (lock) {
            return joinFailure;
        }
    }

    /** Why the registry was lost, or null while it is not (any thread). */
    public String registryLostOrNull() {
        synchronized (lock) {
            return lostMessage;
        }
    }

    /** The exit code the computation ended with, or {@link #NO_CODE} while it goes on. */
    public int terminationCodeOrNone() {
        return terminationCode;
    }

    // ---- application threads --------------------------------------------------------------------

    /** Blocks until the node joined (returns its id) or failed to (throws with the reason). */
    public int awaitJoined(final long timeoutNs) {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        synchronized (lock) {
            while (!joined && joinFailure == null) {
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0) {
                    throw new DivvyException("the node did not join within " + formatDuration(timeoutNs));
                }
                waitNs(leftNs);
            }
            if (joinFailure != null) {
                throw new DivvyException(joinFailure);
            }
            return selfId;
        }
    }

    /** Alive members, this node included. */
    public int aliveMembers() {
        synchronized (lock) {
            return aliveMembers;
        }
    }

    /** Blocks until at least {@code count} members are alive; throws when the timeout passes first. */
    public void awaitMembers(final int count, final Duration timeout) {
        final long timeoutNs = timeout.toNanos();
        final long deadlineNs = System.nanoTime() + timeoutNs;
        synchronized (lock) {
            while (aliveMembers < count) {
                if (lostMessage != null) {
                    throw new DivvyException("waiting for " + count + " nodes: " + lostMessage);
                }
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0) {
                    throw new DivvyException("only " + aliveMembers + " of " + count + " nodes joined within " +
                        formatDuration(timeoutNs));
                }
                waitNs(leftNs);
            }
        }
    }

    /**
     * Blocks until the master ends the computation and returns its exit code, or until the registry orders this
     * node to leave (returns 0; {@link #isLeaveOrdered}); throws when the registry is lost first, or when every
     * other node died or left (then no master is left to end it).
     */
    public int awaitTermination() {
        synchronized (lock) {
            while (terminationCode == NO_CODE) {
                if (leaveOrdered) {
                    return 0;
                }
                if (lostMessage != null) {
                    throw new DivvyException("the computation cannot end normally: " + lostMessage);
                }
                if (mostAliveMembers > 1 && aliveMembers <= 1 && !mastering) {
                    throw new DivvyException("the computation cannot end normally: every other node died or left " +
                        "without ending it (the master crashed?)");
                }
                waitNs(TimeUnit.SECONDS.toNanos(1));
            }
            return terminationCode;
        }
    }

    /**
     * A run starts on this node (any thread): the agent thread tells every other member in its next cycle,
     * so deep-idle peers wake and steal at once. Pair with waking the agent thread.
     */
    public void requestRunStarted() {
        runsHere.incrementAndGet();
        runStartPending.set(true);
    }

    /**
     * A run this node took over resumes here (any thread): a new master re-runs the root of a run whose master died.
     * The agent thread tells every other member in its next cycle (RUN_RESUMED), so their idle agents know a run is
     * active again; end it with {@link #runEnded}. Pair with waking the agent thread.
     */
    public void requestRunResumed() {
        runsHere.incrementAndGet();
        runResumePending.set(true);
    }

    /** Takes a pending {@link #requestRunResumed} (agent thread); a plain read first. */
    boolean takeRunResumeRequest() {
        return runResumePending.get() && runResumePending.getAndSet(false);
    }

    /**
     * A run this node started with {@link #requestRunStarted} (or resumed with {@link #requestRunResumed}) ended (any thread): once no run of this node is left,
     * the agent thread tells every other member (RUN_ENDED), so their idle agents may park long again. Pair with
     * waking the agent thread.
     */
    public void runEnded() {
        runsHere.decrementAndGet();
    }

    /** Takes a pending {@link #requestRunStarted} (agent thread); a plain read first: asked every duty cycle. */
    boolean takeRunStartRequest() {
        return runStartPending.get() && runStartPending.getAndSet(false);
    }

    /** Whether a run this node started has not ended yet (agent thread). */
    boolean isRunningHere() {
        return runsHere.get() > 0;
    }

    /**
     * Whether this node runs a root the registry gave it (any thread): alone, it still ends the computation
     * itself, so {@link #awaitTermination} does not give up when every other node is gone.
     */
    public void mastering(final boolean running) {
        synchronized (lock) {
            mastering = running;
            lock.notifyAll();
        }
    }

    /** Asks the agent to tell every node the computation is over with {@code code}; this node ends too. */
    public void requestTerminate(final int code) {
        synchronized (lock) {
            if (terminateRequest == NO_CODE) {
                terminateRequest = code;
            }
            if (terminationCode == NO_CODE) {
                terminationCode = code;
            }
            lock.notifyAll();
        }
    }

    /** Waits until the TERMINATE broadcast left this node, at most {@code timeoutNs}; whether it did. */
    public boolean awaitTerminateFlushed(final long timeoutNs) {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        synchronized (lock) {
            while (!terminateFlushed) {
                final long leftNs = deadlineNs - System.nanoTime();
                if (leftNs <= 0) {
                    return false;
                }
                waitNs(leftNs);
            }
            return true;
        }
    }

    /** For messages: a duration in seconds or milliseconds. */
    static String formatDuration(final long ns) {
        final long ms = TimeUnit.NANOSECONDS.toMillis(ns);
        return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
    }

    private void waitNs(final long ns) {
        try {
            TimeUnit.NANOSECONDS.timedWait(lock, Math.max(1, ns));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DivvyException("interrupted while waiting for the node");
        }
    }
}
