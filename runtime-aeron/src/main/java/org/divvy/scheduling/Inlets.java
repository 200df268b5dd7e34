package org.divvy.scheduling;

/**
 * Inlets: the result and failure callbacks registered on children's handles, run on the parent's
 * thread while it waits in sync (thesis: inlets; never serialized). A finished child that needs its
 * parent (an inlet, or a failure) pushes itself on the parent's completion stack; sync drains it here.
 * An inlet registered after its child already finished unseen is found in the children list once the
 * frame is quiet. Failures without a failure inlet are collected for {@link SyncFailures}.
 */
final class Inlets {
    private Inlets() {
    }

    /**
     * Runs inlets of finished children on this (the parent's) thread; adds children that failed without
     * a failure inlet to {@code failed} and returns its new head.
     */
    static Task drainCompletions(final Task frame, final Task failed) {
        Task failedHead = failed;
        for (Task c = frame.takeCompletions(); c != null; ) {
            final Task next = c.unlinkNextCompletion();
            try {
                if (c.status == Task.DONE) {
                    c.deliverResult();
                } else if (c.failureCallback() != null) {
                    c.failureCallback().accept(c.exception);
                } else {
                    failedHead = SyncFailures.record(frame, failedHead, c);
                }
            } catch (final AbortSignal signal) {
                // an inlet spawned in an aborted frame: the frame's cancellation is handled by sync
            } catch (final Throwable inletFailure) {
                c.setException(inletFailure);
                failedHead = SyncFailures.record(frame, failedHead, c);
            }
            c = next;
        }
        return failedHead;
    }

    /**
     * Runs the result inlets of children that finished before their inlet was registered (so they did
     * not queue themselves for the parent). Called when every child is done and all queued ones drained.
     */
    static Task deliverMissedInlets(final Task frame, final Task failed) {
        Task failedHead = failed;
        for (Task c = frame.firstChildAcquire(); c != null; c = c.nextSibling) {
            if (c.resultCallback != null && !c.inletDelivered && c.status == Task.DONE) {
                try {
                    c.deliverResult();
                } catch (final AbortSignal signal) {
                    // see drainCompletions
                } catch (final Throwable inletFailure) {
                    c.setException(inletFailure);
                    failedHead = SyncFailures.record(frame, failedHead, c);
                }
            }
        }
        return failedHead;
    }
}
