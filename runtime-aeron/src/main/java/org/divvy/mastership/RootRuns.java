package org.divvy.mastership;

import org.divvy.RootTask;
import org.divvy.SpawnFailedException;
import org.divvy.codegen.Job;

/** A {@link Root}'s job as the root task of a scheduler run: its body runs inline in the root invocation. */
public final class RootRuns {
    private RootRuns() {
    }

    @SuppressWarnings("unchecked")
    public static <T> RootTask<T> task(final Job job) {
        return () -> {
            try {
                job.computeAsCopy();
            } catch (final Exception | Error e) {
                throw e;
            } catch (final Throwable t) {
                throw new SpawnFailedException("the root `" + job.type().name() + "` failed with " + t, t);
            }
            return (T)job.boxedResult();
        };
    }
}
