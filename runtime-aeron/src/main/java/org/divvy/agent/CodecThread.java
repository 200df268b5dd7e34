package org.divvy.agent;

import org.agrona.ErrorHandler;
import org.divvy.threads.TaskThread;

/**
 * The one thread that encodes and decodes large messages (a stolen job's arguments, a job's result),
 * so the agent thread never stalls on them: encoding a 100 MB job took the agent 130 ms, deaf to
 * heartbeats meanwhile. Encodes and decodes up to {@link #INLINE_BYTES} stay on the agent thread (a
 * 100-byte job never hops threads); a mechanism that meets a larger one hands this thread a task, and the
 * task puts its output in that mechanism's own inbox, which its duty drains on the agent thread, as every
 * other crossing into the agent does. The agent is woken after each task.
 *
 * <p>A {@link TaskThread}: tasks run one at a time in the order given; the thread starts with the first task
 * (most nodes never need it) and is a daemon; {@link #close()} stops it, and a task it drops (not run by then, or
 * submitted after) runs what it was given to give back instead: a decode holds a reference to its received frame,
 * which a closing node must free. {@link #submit} is called on the agent thread only; a task must catch what it
 * throws (what it does not is reported and counted as an error).
 */
public final class CodecThread implements AutoCloseable {
    /**
     * The largest encode or decode done on the agent thread (64 KiB): tens of microseconds, less than a
     * hop to another thread and back costs.
     */
    public static final int INLINE_BYTES = 64 * 1024;

    private final TaskThread thread;

    /**
     * @param name         the thread's name.
     * @param errorHandler receives what a task throws; must not throw.
     */
    public CodecThread(final String name, final ErrorHandler errorHandler) {
        this.thread = new TaskThread(() -> name, errorHandler);
    }

    /** What wakes the agent after a task put its output in an inbox (its thread's unpark); any thread. */
    public void waker(final Runnable waker) {
        thread.afterEachTask(waker);
    }

    /**
     * Runs {@code task} on this thread after those given before; agent thread only. If it is dropped instead (the
     * thread closed first), {@code ifDropped} runs, on the closing or the calling thread: it gives back what the task
     * alone holds (a reference to a frame), nothing of its mechanism's tables.
     */
    public void submit(final Runnable task, final Runnable ifDropped) {
        thread.execute(task, ifDropped);
    }

    /**
     * Stops the thread: waits a little for the task it runs (its output then is in its mechanism's inbox), and drops
     * the tasks not run yet (the node is closing). The agent closes it first when it closes, before its duties give
     * back what they hold ({@link Duty#onAgentClose}). Idempotent.
     */
    @Override
    public void close() {
        thread.close();
    }
}
