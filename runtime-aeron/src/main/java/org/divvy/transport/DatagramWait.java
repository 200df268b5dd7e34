package org.divvy.transport;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.ErrorHandler;

/**
 * A park of the network agent that a datagram reaching the node ends. With an embedded INVOKER driver the agent
 * thread itself reads the node's UDP sockets (it steps the driver), so while it parks nothing reads them: a frame
 * that arrived during a deep-idle park of 100 ms (between runs) waited out the park, and 64 idle nodes each waiting
 * their own park made a shared-object write reach the last of them a park late. Here the park is a
 * {@link Selector#select(Consumer, long) select} on the driver's sockets: the receive endpoint's (frames from peers)
 * and each publication's (the peer's status messages and NAKs), registered as the driver opens them. It ends when a
 * datagram is readable, when its time is up, or when another thread {@link #wake()}s it. The driver still does all
 * the reading; the selector only watches. Any datagram ends it, Aeron's own (a stream's heartbeat, a status message)
 * and Divvy's heartbeats included: the agent then runs one duty cycle that finds nothing and waits again.
 *
 * <p>Only with an embedded driver (a standalone driver reads the socket on its own thread; the agent then parks as
 * before). {@link #await} and {@link #register} run on the thread that steps the driver (the agent's, or the
 * transport's creator before the agent starts); {@link #wake()} on any thread.
 */
public final class DatagramWait implements AutoCloseable {
    private static final Consumer<SelectionKey> IGNORE = key -> { };
    private static final long NS_PER_MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Selector selector;
    private final ErrorHandler errorHandler;
    /** The agent is in (or about to enter) {@link #await}'s select: a {@link #wake()} must wake the selector. */
    private volatile boolean waiting;
    /** A {@link #wake()} since the last await ended: the next await returns at once. */
    private volatile boolean wakeRequested;
    private volatile long datagramWakes;
    private volatile long awaits;
    private boolean failed;
    /** Tests only: runs in {@link #await} after it decided to select, before the select. */
    private volatile Runnable beforeSelect;

    private DatagramWait(final Selector selector, final ErrorHandler errorHandler) {
        this.selector = selector;
        this.errorHandler = errorHandler;
    }

    /** A wait with no socket yet, or null (reported) if no selector can be opened: the agent then parks plainly. */
    static DatagramWait open(final ErrorHandler errorHandler) {
        try {
            return new DatagramWait(Selector.open(), errorHandler);
        } catch (final IOException | RuntimeException e) {
            errorHandler.onError(new IOException("could not open a selector for the network agent's idle wait; it parks " +
                "instead, so a frame to a deep-idle node waits for the end of its park: " + e, e));
            return null;
        }
    }

    /**
     * Watches {@code channel} (an endpoint's socket, non-blocking as the driver opens it) from now on. A socket the
     * driver closed stays open until this selector next selects (the JDK defers the close of a registered channel), and
     * a busy agent never waits: each registration first lets the selector drop the closed ones, so those never
     * outnumber the endpoints opened before them.
     */
    void register(final DatagramChannel channel) {
        if (failed) {
            return;
        }
        try {
            selector.selectNow(IGNORE); // drops closed channels' keys (and closes their sockets); a wake is kept in wakeRequested
            channel.register(selector, SelectionKey.OP_READ);
        } catch (final ClosedChannelException e) {
            // the driver closed it already: nothing left to watch
        } catch (final IOException | RuntimeException e) {
            errorHandler.onError(new IOException("the network agent cannot watch its UDP socket while it idles " +
                "(frames then wait for the end of its park): " + e, e));
        }
    }

    /**
     * Parks up to {@code ns} (whole milliseconds, at least one), less if a datagram is readable, a
     * {@link #wake()} came since the last await, or the thread is interrupted.
     */
    public void await(final long ns) {
        if (failed) {
            LockSupport.parkNanos(ns);
            return;
        }
        waiting = true;
        try {
            if (!wakeRequested) {
                final Runnable hook = beforeSelect;
                if (hook != null) {
                    hook.run();
                }
                awaits++;
                if (selector.select(IGNORE, Math.max(1, (ns + NS_PER_MS - 1) / NS_PER_MS)) > 0) {
                    datagramWakes++;
                }
            }
        } catch (final IOException | RuntimeException e) {
            failed = true; // parks from now on: frames then wait for the park's end, as without a wait
            errorHandler.onError(new IOException("the network agent's idle wait failed; it parks instead: " + e, e));
            close(); // lets go of every socket, so the ones the driver closes are released
        } finally {
            waiting = false;
            wakeRequested = false;
        }
    }

    /**
     * Ends the current {@link #await} now, or the next one at once (any thread). The caller publishes what the agent
     * must see before calling this. A waker that sees {@code waiting} false is seen by the agent's check of
     * {@code wakeRequested} (both volatile), so no wake is lost between the two.
     */
    public void wake() {
        wakeRequested = true;
        if (waiting) {
            selector.wakeup();
        }
    }

    /** For an endpoint whose socket the driver just opened: {@code wait} (if any) watches it (if open). */
    static void watch(final DatagramWait wait, final DatagramChannel socket) {
        if (wait != null && socket != null) {
            wait.register(socket);
        }
    }

    /** For an endpoint the driver just closed: {@code wait} (if any) lets go of its socket, which only then closes. */
    static void unwatchClosed(final DatagramWait wait) {
        if (wait != null) {
            wait.dropClosed();
        }
    }

    /**
     * Lets the selector drop the sockets the driver closed (the JDK closes a registered socket only when its selector
     * next selects): called by the endpoints as the driver closes them, on the thread that steps the driver.
     */
    void dropClosed() {
        if (!failed) {
            try {
                selector.selectNow(IGNORE);
            } catch (final IOException | RuntimeException e) {
                errorHandler.onError(e);
            }
        }
    }

    /** The sockets watched now (after dropping closed ones); the thread that steps the driver. */
    int watchedSockets() {
        dropClosed();
        return selector.keys().size();
    }

    /** Tests only: {@code hook} runs in each await between its check for a wake and its select. */
    void beforeSelect(final Runnable hook) {
        this.beforeSelect = hook;
    }

    /** Awaits that ended because a datagram was readable (for statistics and tests). */
    public long datagramWakes() {
        return datagramWakes;
    }

    /** Awaits that selected (not ended at once by an earlier wake). */
    public long awaits() {
        return awaits;
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (final IOException e) {
            errorHandler.onError(e);
        }
    }
}
