package org.divvy.examples.sat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
        final StoreCursor cursor = new StoreCursor();
        knowledge.clausesFrom(cursor, 2, solver::importClause);
        assertEquals(knowledge.used(), cursor.position());
        assertEquals(0, solver.importedClauses(), "queued until the next solve");
        solver.solve();
        assertEquals(1, solver.importedClauses(), "only the clause of origin 1");
        final List<int[]> again = new ArrayList<>();
        knowledge.clausesFrom(cursor, 1, again::add);
        assertEquals(List.of(), again, "nothing new");
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
        assertEquals(0, knowledge.model().length);
        final boolean[] model = {false, true};
        knowledge.modelFound(model);
        assertTrue(knowledge.solved());
        assertArrayEquals(model, knowledge.model());
        knowledge.modelFound(new boolean[] {false, false});
        assertArrayEquals(model, knowledge.model(), "the first model is kept");
    }

    /** A crash can re-run a job after another node's flag reached this replica but its result never came back. */
    @Test
    void shouldAnswerWithTheModelTheFlagCarriedNeverUnsatisfiable() {
        final Cnf cnf = Cnf.load("uf20-01");
        final SatAnswer sequential = SatSequential.solve(cnf);
        assertTrue(sequential.satisfiable());
        final SatKnowledge knowledge = new SatKnowledge();
        knowledge.modelFound(sequential.model());
        final int someVariable = 1;
        for (final int[] cube : new int[][] {{}, {someVariable}, {-someVariable}}) {
            final SatAnswer answer = new SatShare(cnf, 5, 50).solve(cube, knowledge);
            assertTrue(answer.satisfiable(), "a job that sees the flag answered unsatisfiable for cube " + cube.length);
            assertTrue(cnf.satisfiedBy(answer.model()));
        }
    }

    /** A replica with the flag but no model that checks (a lost write repaired only partly) searches on. */
    @Test
    void shouldSearchOnWhenTheFlagCameWithoutAModelThatChecks() {
        final Cnf cnf = Cnf.load("uf20-01");
        for (final boolean[] broken : new boolean[][] {new boolean[0], new boolean[cnf.variables() + 1]}) {
            final SatKnowledge knowledge = new SatKnowledge();
            knowledge.solved = true;
            knowledge.model = broken;
            assertFalse(cnf.satisfiedBy(broken), "the test needs a model that does not check");
            final SatAnswer answer = new SatShare(cnf, 0, 100_000).solve(new int[0], knowledge);
            assertTrue(answer.satisfiable(), "a flag without its model answered unsatisfiable");
            assertTrue(cnf.satisfiedBy(answer.model()));
        }
    }

    /** A fetched state replaces the store: an offset into the old array can point into the middle of a clause. */
    @Test
    void shouldImportOnlyWholeClausesAfterAFetchedStateReplacedTheStore() {
        final SatKnowledge replica = new SatKnowledge();
        replica.learned(1, new int[] {1, 2, 3});
        replica.learned(1, new int[] {4, 5});
        final StoreCursor cursor = new StoreCursor();
        replica.clausesFrom(cursor, 2, clause -> { });
        assertEquals(9, cursor.position());
        final SatKnowledge fetched = new SatKnowledge(); // another node's order: boundaries 0, 4, 10, 13
        fetched.learned(1, new int[] {-7, 8});
        fetched.learned(1, new int[] {9, -10, 11, 12});
        fetched.learned(1, new int[] {13});
        replica.store = fetched.store; // what applying a fetched state does
        replica.used = fetched.used;
        final List<int[]> imported = new ArrayList<>();
        replica.clausesFrom(cursor, 2, imported::add);
        assertFalse(imported.isEmpty(), "the clauses after the last boundary are read");
        for (final int[] clause : imported) {
            assertTrue(Arrays.equals(clause, new int[] {-7, 8}) || Arrays.equals(clause, new int[] {9, -10, 11, 12})
                || Arrays.equals(clause, new int[] {13}), "not a stored clause: " + Arrays.toString(clause));
        }
        assertEquals(fetched.used(), cursor.position());
    }
}
