package org.divvy.transport;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The thread that allocates the buffers large chunked messages are reassembled into, so the agent thread
 * never does: a {@code new byte[200 MB]} is zeroed by the JVM, and on a heap that has not used that memory
 * yet every page is faulted in by the kernel too; measured on the agent thread, 440–560 ms per 200 MB (G1,
 * a humongous allocation) and 290 ms per 100 MB (serial GC), deaf to heartbeats all that time.
 *
 * <p>Tasks run one at a time in the order given. The thread starts with the first task (most nodes never
 * receive a message above {@link Reassembler#INLINE_ALLOCATION_BYTES}) and is a daemon; {@link #close()}
 * stops it. {@link #execute} may be called from any thread; a task must catch what it throws (the
 * reassembler's do: a failed allocation is reported on the agent thread).
 */
final class AllocatorThread implements Executor, AutoCloseable {
    private static final long CLOSE_WAIT_MS = 1_000;

    private final Supplier<String> name;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private volatile boolean closed;
    private Thread thread;

    /** @param name the thread's name, asked for when it starts. */
    AllocatorThread(final Supplier<String> name) {
        this.name = name;
    }

    @Override
    public synchronized void execute(final Runnable task) {
        if (closed) {
            return;
        }
        if (thread == null) {
            final Thread t = new Thread(this::run, name.get());
            t.setDaemon(true);
            thread = t;
            t.start();
        }
        tasks.add(task);
    }

    private void run() {
        while (!closed) {
            final Runnable task;
            try {
                task = tasks.poll(100, TimeUnit.MILLISECONDS);
            } catch (final InterruptedException e) {
                return;
            }
            if (task != null) {
                task.run();
            }
        }
    }

    /** Stops the thread (tasks not run yet are dropped: the transport is closing); waits for it a little. */
    @Override
    public void close() {
        final Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(CLOSE_WAIT_MS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
