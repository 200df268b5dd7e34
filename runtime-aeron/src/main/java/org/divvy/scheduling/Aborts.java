package org.divvy.scheduling;

import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * Cancellation of a frame's outstanding children (Satin's abort).
 *
 * <p>Only the thread running a frame cancels that frame's queued children: by CAS NEW→CANCELLED, which
 * races only with a thief's CAS NEW→RUNNING, so exactly one wins; the canceller counts the child
 * complete and whoever later takes it from a deque drops it. (Because of this rule, a worker that pops
 * its own deque needs no CAS to start a job.) A running child is asked to stop, by any thread: it
 * notices at its next spawn or sync, cancels its own queued children there, waits for its running ones
 * and unwinds with {@link AbortSignal}. A queued job whose parent was asked to stop is cancelled by
 * whoever takes it.
 */
final class Aborts {
    private Aborts() {
    }

    /**
     * Cancels every child of {@code frame} that is not done; running ones are asked to stop. Called only
     * on the thread running {@code frame}.
     */
    static void abortChildren(final Task frame) {
        for (Task child = frame.firstChildAcquire(); child != null; child = child.nextSibling) {
            for (;;) {
                final int status = child.status;
                if (status == Task.UNPUBLISHED) {
                    child.endUnpublished(); // this thread is its parent's: nobody else can see it
                    continue;
                }
                if (status == Task.NEW) {
                    if (child.tryCancel()) {
                        Worker.completeCancelledBeforeStart(child, true);
                        break;
                    }
                    continue; // a thief started it meanwhile: look again
                }
                if (status == Task.RUNNING && !child.cancelRequested) {
                    requestCancel(child);
                    if (child.status == Task.NEW) {
                        // the network agent put it back (its claim could not be sent, its thief or orphan
                        // holder died, the holder did not have it) between our read and the request: it is
                        // queued again, so cancel it here, or this frame would wait for it forever
                        continue;
                    }
                }
                break;
            }
        }
    }

    /**
     * Asks a running job, and its running descendants, to stop (any thread). Iterative: a running chain
     * can be as deep as the computation. A job out on a remote thief (it has a local parent and a
     * {@link RemoteLink}) has no children here: its link forwards the abort to the thief.
     */
    static void requestCancel(final Task running) {
        final ArrayDeque<Task> toVisit = new ArrayDeque<>();
        toVisit.push(running);
        while (!toVisit.isEmpty()) {
            final Task job = toVisit.pop();
            job.markCancelRequested();
            final RemoteLink link = job.remoteLink();
            if (link != null && job.parent != null) {
                link.onCancelRequested(); // out on a remote thief: forward the abort there
                continue;
            }
            final Thread waiter = job.waiter();
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
            for (Task child = job.firstChildAcquire(); child != null; child = child.nextSibling) {
                if (child.status == Task.RUNNING && !child.cancelRequested) {
                    toVisit.push(child);
                }
            }
        }
    }
}
