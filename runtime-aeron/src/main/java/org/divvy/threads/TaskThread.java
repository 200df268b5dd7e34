package org.divvy.threads;

import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.agrona.ErrorHandler;

/**
 * A thread for work that must not run on the agent thread, which would be deaf to heartbeats meanwhile: the
 * codec thread's large encodes and decodes ({@code agent.CodecThread}: encoding a 100 MB job took the agent 130 ms).
 *
 * <p>A {@link QueueThread} of tasks: they run one at a time in the order given; the thread starts with the first
 * task (most nodes never need it) and is a daemon; {@link #close()} stops it, dropping tasks not run yet. {@link
 * #execute} may be called from any thread. What a task throws goes to the error handler; the thread goes on.
 */
public final class TaskThread implements Executor, AutoCloseable {
    private static final long CLOSE_WAIT_MS = 1_000;

    private final ErrorHandler errorHandler;
    private final QueueThread<Runnable> thread;
    private volatile Runnable afterEachTask = () -> { };

    /**
     * @param name         the thread's name, asked for when it starts.
     * @param errorHandler receives what a task throws; must not throw.
     */
    public TaskThread(final Supplier<String> name, final ErrorHandler errorHandler) {
        this.errorHandler = errorHandler;
        this.thread = new QueueThread<>(name, CLOSE_WAIT_MS, this::run);
    }

    /** Runs after every task, on this thread (say, waking the agent to collect the task's output); any thread. */
    public void afterEachTask(final Runnable action) {
        this.afterEachTask = action;
    }

    /** Runs {@code task} on this thread after those given before; any thread. Ignored once closed. */
    @Override
    public void execute(final Runnable task) {
        thread.offer(task);
    }

    private void run(final Runnable task) {
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

    /** Stops the thread (tasks not run yet are dropped: the node is closing); waits for it a little. */
    @Override
    public void close() {
        thread.close(dropped -> { });
    }
}
