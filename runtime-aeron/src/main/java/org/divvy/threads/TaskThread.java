package org.divvy.threads;

import java.util.function.Supplier;

import org.agrona.ErrorHandler;

/**
 * A thread for work that must not run on the agent thread, which would be deaf to heartbeats meanwhile: the
 * codec thread's large encodes and decodes ({@code agent.CodecThread}: encoding a 100 MB job took the agent 130 ms).
 *
 * <p>A {@link QueueThread} of tasks: they run one at a time in the order given; the thread starts with the first
 * task (most nodes never need it) and is a daemon; {@link #close()} stops it. A task comes with what gives back what
 * it holds (a received frame it was to decode, say) should it never run: a task not run when the thread closes, or
 * given after, is dropped, and that runs instead, so a closing node frees what its queued tasks held. {@link
 * #execute} may be called from any thread. What a task throws goes to the error handler; the thread goes on.
 */
public final class TaskThread implements AutoCloseable {
    private static final long CLOSE_WAIT_MS = 1_000;

    private final ErrorHandler errorHandler;
    private final QueueThread<Queued> thread;
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

    /** A task and what runs instead should it be dropped. */
    private record Queued(Runnable task, Runnable ifDropped) {
    }

    /**
     * Runs {@code task} on this thread after those given before; any thread. Once closed, {@code ifDropped} runs
     * instead, on the calling thread; so it does for a task still queued when the thread closes, on the closing
     * thread. {@code ifDropped} gives back only what the task alone holds (a reference to a frame): it may run on
     * any thread. What it throws goes to the error handler.
     */
    public void execute(final Runnable task, final Runnable ifDropped) {
        final Queued queued = new Queued(task, ifDropped);
        if (!thread.offer(queued)) {
            drop(queued);
        }
    }

    private void drop(final Queued queued) {
        runReporting(queued.ifDropped);
    }

    private void run(final Queued queued) {
        runReporting(queued.task);
        runReporting(afterEachTask); // a waker that throws must not stop the thread: later tasks would never run
    }

    /** Runs {@code action}; what it throws goes to the error handler, and nothing stops this thread or the close. */
    private void runReporting(final Runnable action) {
        try {
            action.run();
        } catch (final Throwable t) {
            try {
                errorHandler.onError(t);
            } catch (final Throwable ignore) {
                // the handler must not stop this thread, nor the close
            }
        }
    }

    /**
     * Stops the thread: waits a little for the task it runs, then drops the tasks not run yet (the node is closing),
     * running what each gives back with, on this thread. Idempotent.
     */
    @Override
    public void close() {
        thread.close(this::drop);
    }
}
