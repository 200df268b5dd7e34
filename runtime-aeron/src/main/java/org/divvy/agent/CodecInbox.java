package org.divvy.agent;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Where a mechanism's {@link CodecThread} tasks put what they encoded (a frame of its own, often off the heap) for the
 * mechanism's duty to take on the agent thread. It exists for the close: {@link CodecThread#close()} waits only a
 * little for the task it runs, so a long encode may finish after its node closed, when no duty will take its output
 * again; once {@link #close closed}, an inbox gives back whatever is put in it at once instead of keeping it forever.
 *
 * <p>Why no item is kept or given back twice: {@link #add} puts the item in, then reads {@link #closed};
 * {@link #close} sets it, then empties the queue. Both are volatile accesses, so at least one side sees the other's
 * step, and the queue's {@code poll} hands each item to one caller only.
 *
 * @param <T> what a task hands back.
 */
public final class CodecInbox<T> {
    private final Queue<T> queue = new ConcurrentLinkedQueue<>();
    private final Consumer<T> giveBack;
    private volatile boolean closed;

    /** @param giveBack frees what an item holds (its frame); runs on the closing thread or on the codec thread. */
    public CodecInbox(final Consumer<T> giveBack) {
        this.giveBack = giveBack;
    }

    /** Hands {@code item} to the duty; given back at once if the inbox is closed. Codec thread. */
    public void add(final T item) {
        queue.add(item);
        if (closed) {
            giveBackAll();
        }
    }

    /** The next item handed back, or null. Agent thread. */
    public T poll() {
        return queue.poll();
    }

    /**
     * The node closes: what is in the inbox now and what a task still running puts in later are given back. Call it
     * after the duty took what it keeps itself ({@link #poll}). Idempotent.
     */
    public void close() {
        closed = true;
        giveBackAll();
    }

    private void giveBackAll() {
        T item;
        while ((item = queue.poll()) != null) {
            giveBack.accept(item);
        }
    }
}
