package org.divvy.examples.sat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.divvy.examples.Nodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The divide-and-share SAT solver and what it shares: its answers, the clause store, the solver's restart hook. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SatShareTest {
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldAgreeWithTheSequentialSolver(final int workers) {
        for (long seed = 1; seed <= 6; seed++) {
            final Cnf cnf = Cnf.random3Sat(60, 256, seed);
            final boolean expected = SatSequential.solve(cnf).satisfiable();
            for (final int[] setting : new int[][] {{0, 5}, {3, 50}, {5, 100_000}}) {
                final SatAnswer answer = Nodes.run(workers, new SatShare(cnf, setting[0], setting[1]).solveAll());
                assertEquals(expected, answer.satisfiable(), "seed " + seed + " depth " + setting[0]);
                assertTrue(!answer.satisfiable() || cnf.satisfiedBy(answer.model()), "seed " + seed);
            }
        }
    }

    @Test
    void shouldStopASolverWhoseRestartListenerSaysSo() {
        final CdclSolver solver = new CdclSolver(Cnf.load("uuf175-040")); // thousands of conflicts: many restarts
        final AtomicInteger restarts = new AtomicInteger();
        solver.restartListener(s -> restarts.incrementAndGet() < 3);
        assertEquals(CdclSolver.Result.UNKNOWN, solver.solve(new int[0], -1), "no budget, yet stopped");
        assertEquals(3, restarts.get());
        solver.restartListener(s -> true);
        assertEquals(CdclSolver.Result.UNSATISFIABLE, solver.solve(new int[0], -1), "and it resumes to the end");
    }

    @Test
    void shouldImportTheOthersClausesOnceAndKeepTheStoreBounded() {
        final SatKnowledge knowledge = new SatKnowledge();
        knowledge.learned(1, new int[] {1, 2});
        knowledge.learned(2, new int[] {-3});
        knowledge.learned(2, new int[] {4, -5, 6});
        final CdclSolver solver = new CdclSolver(Cnf.load("uf20-01"));
        final int position = knowledge.clausesFrom(0, 2, solver);
        assertEquals(knowledge.used(), position);
        assertEquals(0, solver.importedClauses(), "queued until the next solve");
        solver.solve();
        assertEquals(1, solver.importedClauses(), "only the clause of origin 1");
        assertEquals(position, knowledge.clausesFrom(position, 1, solver), "nothing new");
        int added = 0;
        while (!knowledge.isFull()) {
            knowledge.learned(3, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
            added++;
        }
        final int full = knowledge.used();
        knowledge.learned(3, new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        assertEquals(full, knowledge.used(), "a full store keeps no more");
        assertTrue(full <= SatKnowledge.MAX_STORE_INTS);
        assertTrue(added > 20_000, "about 21,000 clauses of 10 literals fit: " + added);
        assertFalse(knowledge.solved());
        knowledge.modelFound();
        assertTrue(knowledge.solved());
    }
}
