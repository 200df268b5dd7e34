package org.divvy.threads;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A thread of its own that hands the items of a queue to a handler, one at a time, in the order they came: for work
 * that must not run on the thread that has it (the network agent, deaf to heartbeats meanwhile). The thread starts
 * with the first item (most nodes never need it) and is a daemon. {@link #close} stops it: it ends after the item it
 * is handling, and the items it did not take go back to the closer, who decides what becomes of them (run them,
 * give back what they hold); after that, {@link #offer} refuses, and the caller keeps its item. Every item is thus
 * handled by the thread or handed back, once.
 *
 * <p>{@link #offer} and {@link #close} from any thread; the handler runs on this thread only and must not throw.
 *
 * @param <T> the items.
 */
public final class QueueThread<T> {
    /** How long the thread waits for an item before it looks whether it was closed. */
    private static final long POLL_MS = 100;

    private final Supplier<String> name;
    private final long closeWaitMs;
    private final Consumer<? super T> handler;
    private final LinkedBlockingQueue<T> queue = new LinkedBlockingQueue<>();
    private volatile boolean closed;
    /** Guarded by this: started with the first item. */
    private Thread thread;

    /**
     * @param name        the thread's name, asked for when it starts.
     * @param closeWaitMs how long {@link #close} waits for the item being handled.
     * @param handler     handles each item, on this thread; must not throw.
     */
    public QueueThread(final Supplier<String> name, final long closeWaitMs, final Consumer<? super T> handler) {
        this.name = name;
        this.closeWaitMs = closeWaitMs;
        this.handler = handler;
    }

    /** Queues {@code item} for the thread, starting it if need be; false once closed (the caller keeps the item). */
    public synchronized boolean offer(final T item) {
        if (closed) {
            return false;
        }
        if (thread == null) {
            final Thread t = new Thread(this::run, name.get());
            t.setDaemon(true);
            thread = t;
            t.start();
        }
        queue.add(item);
        return true;
    }

    private void run() {
        while (!closed) {
            final T item;
            try {
                item = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (final InterruptedException e) {
                continue; // close() interrupts: the loop's check ends the thread
            }
            if (item != null) {
                handler.accept(item);
            }
        }
    }

    /**
     * Stops the thread: waits up to {@code closeWaitMs} for the item it is handling, then hands every item it did not
     * take to {@code leftOver}, on the calling thread. Later offers are refused. Idempotent.
     */
    public void close(final Consumer<? super T> leftOver) {
        final Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(closeWaitMs);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (T item; (item = queue.poll()) != null; ) {
            leftOver.accept(item);
        }
    }
}
