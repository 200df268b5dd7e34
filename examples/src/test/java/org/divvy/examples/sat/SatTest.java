package org.divvy.examples.sat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.divvy.examples.Nodes;
import org.divvy.examples.WireCopies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SatTest {
    /** Every model of a small formula, by enumeration. */
    private static List<boolean[]> models(final Cnf cnf) {
        final List<boolean[]> models = new ArrayList<>();
        for (int bits = 0; bits < 1 << cnf.variables(); bits++) {
            final boolean[] model = new boolean[cnf.variables() + 1];
            for (int v = 1; v <= cnf.variables(); v++) {
                model[v] = (bits >> (v - 1) & 1) != 0;
            }
            if (cnf.satisfiedBy(model)) {
                models.add(model);
            }
        }
        return models;
    }

    private static boolean satisfies(final boolean[] model, final int[] clause) {
        for (final int literal : clause) {
            if (model[Math.abs(literal)] == literal > 0) {
                return true;
            }
        }
        return false;
    }

    @Test
    void shouldAgreeWithEnumerationOnSmallRandomFormulas() {
        int satisfiable = 0;
        for (long seed = 1; seed <= 200; seed++) {
            final Cnf cnf = Cnf.random3Sat(12, 54, seed);
            final boolean expected = !models(cnf).isEmpty();
            final SatAnswer answer = SatSequential.solve(cnf);
            assertEquals(expected, answer.satisfiable(), "seed " + seed);
            if (answer.satisfiable()) {
                satisfiable++;
                assertTrue(cnf.satisfiedBy(answer.model()), "seed " + seed);
            }
        }
        assertTrue(satisfiable > 20 && satisfiable < 180, "both kinds were tried: " + satisfiable + " of 200 satisfiable");
    }

    @Test
    void shouldExportOnlyClausesThatEveryModelSatisfiesAndUpToTheirSize() {
        for (long seed = 1; seed <= 40; seed++) {
            final Cnf cnf = Cnf.random3Sat(14, 60, seed);
            final List<int[]> exported = new ArrayList<>();
            final CdclSolver solver = new CdclSolver(cnf, 10, exported::add);
            solver.solve();
            final List<boolean[]> models = models(cnf);
            for (final int[] clause : exported) {
                assertTrue(clause.length <= 10, "seed " + seed);
                for (final boolean[] model : models) {
                    assertTrue(satisfies(model, clause), "seed " + seed + ": an exported clause excludes a model");
                }
            }
        }
    }

    @Test
    void shouldStayCorrectWithClausesImportedFromAnotherSolverUnderAssumptions() {
        for (long seed = 1; seed <= 40; seed++) {
            final Cnf cnf = Cnf.random3Sat(14, 60, seed);
            final List<int[]> exported = new ArrayList<>();
            // learned under a cube, as a cube-and-conquer job learns: still valid for the whole formula
            new CdclSolver(cnf, 10, exported::add).solve(new int[] {1, -2, 3}, -1);
            final CdclSolver importer = new CdclSolver(cnf);
            exported.forEach(importer::importClause);
            final CdclSolver.Result result = importer.solve();
            assertEquals(!models(cnf).isEmpty(), result == CdclSolver.Result.SATISFIABLE, "seed " + seed);
            assertEquals(exported.isEmpty() ? 0 : exported.size(), importer.importedClauses(), "seed " + seed);
        }
    }

    @Test
    void shouldFindAModelUnderAssumptionsOrNone() {
        for (long seed = 1; seed <= 40; seed++) {
            final Cnf cnf = Cnf.random3Sat(12, 40, seed);
            final int[] cube = {-1, 2, -3};
            final boolean expected = models(cnf).stream().anyMatch(m -> !m[1] && m[2] && !m[3]);
            final CdclSolver solver = new CdclSolver(cnf);
            final CdclSolver.Result result = solver.solve(cube, -1);
            assertEquals(expected, result == CdclSolver.Result.SATISFIABLE, "seed " + seed);
            if (expected) {
                final boolean[] model = solver.model();
                assertTrue(cnf.satisfiedBy(model) && !model[1] && model[2] && !model[3], "seed " + seed);
            }
            // the solver stays usable without the assumptions
            assertEquals(!models(cnf).isEmpty(), solver.solve() == CdclSolver.Result.SATISFIABLE, "seed " + seed);
        }
    }

    @Test
    void shouldStopAtItsBudgetAndResumeWhereItStopped() {
        final Cnf cnf = Cnf.load("uuf100-01");
        final CdclSolver solver = new CdclSolver(cnf);
        assertEquals(CdclSolver.Result.UNKNOWN, solver.solve(new int[0], 10));
        assertTrue(solver.conflicts() >= 10 && solver.conflicts() < 20, "conflicts " + solver.conflicts());
        assertEquals(CdclSolver.Result.UNSATISFIABLE, solver.solve(new int[0], -1));
        assertTrue(solver.isUnsatisfiable());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uf20-01", "uf50-01", "uuf50-01", "uf100-01", "uuf100-01", "uf150-016", "uuf150-020",
        "uf175-012", "uuf175-040"})
    void shouldAnswerEveryShippedInstanceAsSatlibLabelsIt(final String name) {
        final Cnf cnf = Cnf.load(name);
        final SatAnswer answer = SatSequential.solve(cnf);
        assertEquals(SatInstances.publishedSatisfiable(name), answer.satisfiable());
        assertTrue(!answer.satisfiable() || cnf.satisfiedBy(answer.model()));
    }

    @Test
    void shouldParseDimacsAcrossLinesAndStopAtSatlibsPercent() throws Exception {
        final Cnf cnf = Cnf.parseDimacs("t", new BufferedReader(new StringReader(
            "c a comment\np cnf 3 2\n1 -2\n 3 0 -1\n0\n%\n0\n")));
        assertEquals(2, cnf.clauses());
        assertEquals(List.of(1, -2, 3), java.util.Arrays.stream(cnf.clause(0)).boxed().toList());
        assertEquals(List.of(-1), java.util.Arrays.stream(cnf.clause(1)).boxed().toList());
    }

    @Test
    void shouldRefuseBrokenDimacsWithALineNumber() {
        final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> Cnf.parseDimacs("t",
            new BufferedReader(new StringReader("p cnf 2 1\n1 3 0\n"))));
        assertTrue(beyond.getMessage().contains("t:2") && beyond.getMessage().contains("literal 3"), beyond.getMessage());
        final IllegalArgumentException count = assertThrows(IllegalArgumentException.class, () -> Cnf.parseDimacs("t",
            new BufferedReader(new StringReader("p cnf 2 2\n1 2 0\n"))));
        assertTrue(count.getMessage().contains("declares 2"), count.getMessage());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldAgreeWithTheSequentialSolverInParallel(final int workers) {
        for (long seed = 1; seed <= 6; seed++) {
            final Cnf cnf = Cnf.random3Sat(60, 256, seed);
            final boolean expected = SatSequential.solve(cnf).satisfiable();
            // cube depth 0 and a tiny budget: every job splits dynamically; depth 5: 32 static cubes first
            for (final int[] setting : new int[][] {{0, 5}, {3, 50}, {5, 100_000}}) {
                final SatAnswer answer = Nodes.run(workers, new Sat(cnf, setting[0], setting[1]).solveAll());
                assertEquals(expected, answer.satisfiable(), "seed " + seed + " depth " + setting[0]);
                assertTrue(!answer.satisfiable() || cnf.satisfiedBy(answer.model()), "seed " + seed);
            }
        }
    }

    @Test
    void shouldComputeTheSameOnACopySentToAnotherNode() throws Throwable {
        final Cnf cnf = Cnf.load("uuf50-01");
        final SatJobs.SolveJob copy = WireCopies.copy(new SatJobs.SolveJob(new Sat(cnf, 0, 1_000_000), new int[] {1},
            new int[] {2, 3, 0}, 1_000_000L));
        // under x1 with the clause (x2 v x3) given: the formula stays unsatisfiable
        assertFalse(((SatAnswer)copy.call()).satisfiable());
    }
}
