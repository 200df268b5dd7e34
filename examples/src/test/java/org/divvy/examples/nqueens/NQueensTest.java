package org.divvy.examples.nqueens;

import org.divvy.examples.WireCopies;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NQueensTest {
    @Test
    void shouldCountKnownSolutionsSequentially() {
        for (int n = 1; n <= 11; n++) {
            assertEquals(NQueensSequential.known(n), NQueensSequential.count(n), "n=" + n);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldCountKnownSolutionsInParallel(final int workers) {
        for (int n = 1; n <= 10; n++) {
            for (final int depth : new int[] {0, 1, 3, n + 1}) {
                final int size = n;
                final long count = Nodes.run(workers, new NQueens(size, depth).countAll());
                assertEquals(NQueensSequential.known(n), count, "n=" + n + " sequential depth " + depth);
            }
        }
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final NQueensJobs.CountJob copy = WireCopies.copy(new NQueensJobs.CountJob(new NQueens(8, 0), 0, 0, 0, 0));
        assertEquals(92, copy.call());
    }
}
