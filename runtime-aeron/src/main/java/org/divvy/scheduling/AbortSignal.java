package org.divvy.scheduling;

/**
 * Unwinds a job whose invocation was aborted, from its next spawn or sync up to the job runner, which
 * completes the job as cancelled. Not a user-visible exception: it is an {@link Error} so that a
 * {@code catch (Exception e)} in user code does not swallow it, it has no stack trace (it is thrown on
 * the abort path of searches, which must stay cheap), and a single immutable instance is reused.
 */
final class AbortSignal extends Error {
    private static final long serialVersionUID = 1L;

    /** The only instance: immutable (no stack trace, suppression disabled). */
    static final AbortSignal INSTANCE = new AbortSignal();

    private AbortSignal() {
        super("divvy internal: the current invocation was aborted", null, false, false);
    }
}
