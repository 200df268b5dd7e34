package org.divvy.examples.fib;

import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.divvy.Root;
import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FibTest {
    @Test
    void shouldMatchKnownValuesByIteration() {
        assertEquals(0, FibSequential.fibIterative(0));
        assertEquals(1, FibSequential.fibIterative(1));
        assertEquals(55, FibSequential.fibIterative(10));
        assertEquals(7540113804746346429L, FibSequential.fibIterative(92));
    }

    @Test
    void shouldComputeTheSameAsIterationSequentially() {
        for (int n = 0; n <= 25; n++) {
            assertEquals(FibSequential.fibIterative(n), FibSequential.fib(n), "fib(" + n + ")");
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldComputeFibWhenSpawningEveryCall(final int workers) {
        for (final int threshold : new int[] {0, 1}) {
            for (int n = 0; n <= 18; n++) {
                final int size = n;
                final long value = Nodes.run(workers, Root.of(() -> new Fib(threshold).spawnFib(size)));
                assertEquals(FibSequential.fibIterative(n), value, "fib(" + n + ") threshold " + threshold);
            }
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldComputeFibWithSequentialCutoff(final int workers) {
        assertEquals(FibSequential.fibIterative(30), (long)Nodes.run(workers, Root.of(() -> new Fib(12).spawnFib(30))));
    }

    @Test
    void shouldCountCallsOfTheRecursiveDefinition() {
        assertEquals(1, FibSequential.calls(0));
        assertEquals(1, FibSequential.calls(1));
        assertEquals(15, FibSequential.calls(5));
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final FibJobs.FibJob copy = WireCopies.copy(new FibJobs.FibJob(new Fib(100), 20));
        assertEquals(100, copy.receiver.threshold);
        assertEquals(FibSequential.fibIterative(20), copy.call());
    }
}
