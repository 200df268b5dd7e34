package org.divvy.transport;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.agrona.ErrorHandler;

/**
 * A thread for work that must not run on the agent thread, which would be deaf to heartbeats meanwhile: the
 * codec thread's large encodes and decodes ({@code agent.CodecThread}: encoding a 100 MB job took the agent 130 ms).
 *
 * <p>Tasks run one at a time in the order given. The thread starts with the first task (most nodes never need
 * it) and is a daemon; {@link #close()} stops it, dropping tasks not run yet. {@link #execute} may be called from
 * any thread. What a task throws goes to the error handler; the thread goes on.
 */
public final class TaskThread implements Executor, AutoCloseable {
    private static final long CLOSE_WAIT_MS = 1_000;

    private final Supplier<String> name;
    private final ErrorHandler errorHandler;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private volatile Runnable afterEachTask = () -> { };
    private volatile boolean closed;
    /** Guarded by this: started with the first task. */
    private Thread thread;

    /**
     * @param name         the thread's name, asked for when it starts.
     * @param errorHandler receives what a task throws; must not throw.
     */
    public TaskThread(final Supplier<String> name, final ErrorHandler errorHandler) {
        this.name = name;
        this.errorHandler = errorHandler;
    }

    /** Runs after every task, on this thread (say, waking the agent to collect the task's output); any thread. */
    public void afterEachTask(final Runnable action) {
        this.afterEachTask = action;
    }

    /** Runs {@code task} on this thread after those given before; any thread. Ignored once closed. */
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
            if (task == null) {
                continue;
            }
            try {
                task.run();
            } catch (final Throwable t) {
                try {
                    errorHandler.onError(t);
                } catch (final Throwable ignore) {
                    // the handler must not stop this thread
                }
            }
            afterEachTask.run();
        }
    }

    /** Stops the thread (tasks not run yet are dropped: the node is closing); waits for it a little. */
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
