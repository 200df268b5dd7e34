package org.divvy.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.divvy.SpawnFailedException;

/**
 * The failures a sync found: children that failed without a failure inlet. The first failure aborts
 * the remaining children (sync will throw anyway); sync then throws the failure of the lowest child
 * index with the others suppressed, so the outcome does not depend on which child failed first in time.
 */
final class SyncFailures {
    private SyncFailures() {
    }

    /**
     * Adds a failed child to the failures of the running sync of {@code frame} (a list linked through
     * {@code nextCompletion}) and returns the new head; the first failure aborts the other children.
     */
    static Task record(final Task frame, final Task failedHead, final Task failedChild) {
        failedChild.linkFailure(failedHead);
        if (failedHead == null) {
            Aborts.abortChildren(frame);
        }
        return failedChild;
    }

    /** Throws the failures a sync recorded, starting at {@code failedHead}. */
    static void throwFailures(final Task failedHead) {
        final List<Task> failed = new ArrayList<>();
        for (Task c = failedHead; c != null; ) {
            final Task next = c.unlinkNextCompletion();
            failed.add(c);
            c = next;
        }
        failed.sort(Comparator.comparingInt(c -> c.childIndex));
        final Task first = failed.get(0);
        final Throwable thrown = first.exception instanceof RuntimeException || first.exception instanceof Error ?
            first.exception : wrap(first, first.exception);
        for (int i = 1; i < failed.size(); i++) {
            final Throwable other = failed.get(i).exception;
            if (other != thrown) {
                thrown.addSuppressed(other);
            }
        }
        if (thrown instanceof Error e) {
            throw e;
        }
        throw (RuntimeException)thrown;
    }

    /** Unchecked exceptions as they are; errors thrown directly; checked ones wrapped, naming the job. */
    static RuntimeException unchecked(final Task job, final Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return wrap(job, t);
    }

    private static SpawnFailedException wrap(final Task job, final Throwable t) {
        return new SpawnFailedException("spawned job `" + job.displayName() + "` (child " + job.childIndex +
            ") failed with " + t, t);
    }
}
