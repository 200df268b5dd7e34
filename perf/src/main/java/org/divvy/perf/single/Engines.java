package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import org.divvy.DivvyException;

/**
 * The parallel engines of one benchmark session, started once and shared by every benchmark: a
 * {@link ForkJoinPool} and a Divvy node with the same number of workers.
 */
public final class Engines implements AutoCloseable {
    private static final long POOL_SHUTDOWN_TIMEOUT_S = 10;

    private final ForkJoinPool forkJoinPool;
    private final DivvyEngine divvy;

    private Engines(final ForkJoinPool forkJoinPool, final DivvyEngine divvy) {
        this.forkJoinPool = forkJoinPool;
        this.divvy = divvy;
    }

    /** Starts a ForkJoinPool with parallelism {@code workers} and a Divvy node with {@code workers} workers. */
    public static Engines start(final int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers=" + workers + ", must be >= 1");
        }
        final ForkJoinPool pool = new ForkJoinPool(workers);
        try {
            return new Engines(pool, DivvyEngine.start(workers));
        } catch (final RuntimeException | Error ex) {
            pool.shutdownNow();
            throw ex;
        }
    }

    public ForkJoinPool forkJoinPool() {
        return forkJoinPool;
    }

    public DivvyEngine divvy() {
        return divvy;
    }

    @Override
    public void close() {
        try {
            divvy.close();
        } finally {
            forkJoinPool.shutdown();
            try {
                if (!forkJoinPool.awaitTermination(POOL_SHUTDOWN_TIMEOUT_S, TimeUnit.SECONDS)) {
                    throw new DivvyException("ForkJoinPool did not stop within " + POOL_SHUTDOWN_TIMEOUT_S + " s");
                }
            } catch (final InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
