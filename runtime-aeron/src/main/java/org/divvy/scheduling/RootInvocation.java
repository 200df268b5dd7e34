package org.divvy.scheduling;

import java.util.concurrent.locks.LockSupport;

import org.divvy.RootTask;

/**
 * The root invocation of a run: submitted to the workers (never placed in a deque, so never stolen or
 * sent to another node), it wakes the run's caller when it completes.
 */
final class RootInvocation<T> extends Task {
    private final RootTask<T> task;
    /** The thread blocked in {@code run()}; not the frame waiter, which sync uses for this frame. */
    private final Thread caller;
    private T value;

    RootInvocation(final RootTask<T> task, final Thread caller) {
        this.task = task;
        this.caller = caller;
    }

    @Override
    protected void compute() throws Exception {
        value = task.call();
    }

    @Override
    protected void runResultCallback() {
        // a root has no parent, so no inlet
    }

    @Override
    protected String spawnableName() {
        return "root";
    }

    /** Wakes the run's caller to look again (the node closed: no worker is left to complete this root). */
    void wakeCaller() {
        LockSupport.unpark(caller);
    }

    @Override
    void onCompletedWithoutLocalParent() {
        LockSupport.unpark(caller);
    }

    /** The value of a root that completed normally. */
    T value() {
        return value;
    }
}
