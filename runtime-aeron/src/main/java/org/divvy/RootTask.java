package org.divvy;

/**
 * The root invocation of a run: typically {@code () -> new Fib().fib(40)}. It runs on a worker thread
 * as the root job (never stolen), so the spawnable methods it calls can spawn.
 */
@FunctionalInterface
public interface RootTask<T> {
    T call() throws Exception;
}
