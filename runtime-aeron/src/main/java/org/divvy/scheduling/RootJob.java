package org.divvy.scheduling;

import java.util.concurrent.locks.LockSupport;

import org.divvy.DivvyException;
import org.divvy.RootTask;
import org.divvy.wire.JobType;
import org.divvy.wire.WireReader;
import org.divvy.wire.WireWriter;

/**
 * The root invocation of a run: submitted to the workers (never placed in a deque, so never stolen),
 * it wakes the run's caller when it completes.
 */
final class RootJob<T> extends ObjectJob<T> {
    /** The type of every root job; roots never travel, so it decodes nothing. */
    private static final JobType ROOT_TYPE = new JobType() {
        @Override
        public String name() {
            return "root";
        }

        @Override
        public Job decode(final WireReader reader) {
            throw new DivvyException("the root job is never sent to another node");
        }
    };

    private final RootTask<T> task;
    /** The thread blocked in {@code run()}; not the frame waiter, which sync uses for this frame. */
    private final Thread caller;

    RootJob(final RootTask<T> task, final Thread caller) {
        this.task = task;
        this.caller = caller;
    }

    @Override
    protected T call() throws Exception {
        return task.call();
    }

    @Override
    public JobType type() {
        return ROOT_TYPE;
    }

    @Override
    public void encodeArguments(final WireWriter writer) {
        throw new DivvyException("the root job is never sent to another node");
    }

    @Override
    protected void writeValue(final WireWriter writer, final T value) {
        throw new DivvyException("the root job's result is never sent to another node");
    }

    @Override
    protected T readValue(final WireReader reader) {
        throw new DivvyException("the root job's result is never sent to another node");
    }

    @Override
    void onCompletedWithoutLocalParent() {
        LockSupport.unpark(caller);
    }

    /** The value of a root that completed normally. */
    T value() {
        return result;
    }
}
