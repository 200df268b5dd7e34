package org.divvy.examples.fib;

/** Fibonacci numbers, sequentially: the doubly recursive definition, and an iterative reference. */
public final class FibSequential {
    private FibSequential() {
    }

    /** fib(n) by the doubly recursive definition: the same algorithm as {@link Fib}, without spawns. */
    public static long fib(final int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    /** fib(n) by iteration, exact for n <= 92 (fib(93) overflows a long); the reference answer. */
    public static long fibIterative(final int n) {
        long previous = 0;
        long current = 1;
        if (n == 0) {
            return 0;
        }
        for (int i = 1; i < n; i++) {
            final long next = previous + current;
            previous = current;
            current = next;
        }
        return current;
    }

    /** The number of calls the recursive definition makes for fib(n): 2 * fib(n + 1) - 1. */
    public static long calls(final int n) {
        return 2 * fibIterative(n + 1) - 1;
    }
}
