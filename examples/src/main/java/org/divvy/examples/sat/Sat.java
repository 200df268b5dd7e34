package org.divvy.examples.sat;

import java.util.List;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * SAT with Divvy by cube and conquer, pure divide and conquer: a job holds a cube (literals assumed true) and
 * either splits it on a variable into two spawned jobs, or runs a {@link CdclSolver} under it. The first
 * {@code cubeDepth} levels split at once on the variables occurring most often; below them a job solves within a
 * conflict budget and, if the budget runs out undecided, splits on the solver's most active free variable and
 * hands its children its short learned clauses (at most {@link #SHARED_CLAUSE_SIZE} literals) and twice its
 * budget. Learned clauses follow from the formula alone (the cube is assumptions, never units), so they are
 * valid below any cube; here they only travel down the tree, since there are no shared objects yet.
 *
 * <p>The first child to find a model wins: an inlet keeps it and aborts its siblings, which stop at their next
 * spawn or sync (a solving job notices within its budget); the model then travels up.
 */
public class Sat implements SatSpawner {
    /** Learned clauses up to this many literals are passed to the children. */
    public static final int SHARED_CLAUSE_SIZE = 10;
    /** At most this many are passed, lowest LBD first, so a job stays small. */
    public static final int SHARED_CLAUSE_LIMIT = 2000;

    Cnf cnf;
    /** Variables by occurrence count, most first: the split order of the first {@link #cubeDepth} levels. */
    int[] splitOrder;
    int cubeDepth;
    long leafConflicts;

    /** For the generated receiver codec. */
    public Sat() {
    }

    public Sat(final Cnf cnf, final int cubeDepth, final long leafConflicts) {
        this.cnf = cnf;
        this.splitOrder = SatSequential.variablesByOccurrence(cnf);
        this.cubeDepth = cubeDepth;
        this.leafConflicts = leafConflicts;
    }

    /** Solving the whole formula, as a run's root. */
    public Root<SatAnswer> solveAll() {
        return Root.of(() -> spawnSolve(new int[0], new int[0], leafConflicts));
    }

    /**
     * A model that makes every literal of {@code cube} true, or {@link SatAnswer#UNSATISFIABLE} when none does.
     * {@code clauses} are learned clauses to start from, as DIMACS literals with each clause ended by 0.
     */
    @Spawnable
    public SatAnswer solve(final int[] cube, final int[] clauses, final long conflictBudget) {
        final int variable;
        int[] inherited = clauses;
        long budget = conflictBudget;
        if (cube.length < cubeDepth && cube.length < splitOrder.length) {
            variable = splitOrder[cube.length];
        } else {
            final CdclSolver solver = new CdclSolver(cnf);
            importAll(solver, clauses);
            final CdclSolver.Result result = solver.solve(cube, conflictBudget);
            if (result == CdclSolver.Result.SATISFIABLE) {
                return SatAnswer.satisfiable(solver.model());
            }
            if (result == CdclSolver.Result.UNSATISFIABLE) {
                return SatAnswer.UNSATISFIABLE;
            }
            variable = solver.mostActiveFreeVariable(cube);
            if (variable == 0) { // nothing left to split on: finish here
                return solver.solve(cube, -1) == CdclSolver.Result.SATISFIABLE ? SatAnswer.satisfiable(solver.model())
                    : SatAnswer.UNSATISFIABLE;
            }
            inherited = flatten(solver.shortLearnedClauses(SHARED_CLAUSE_SIZE, SHARED_CLAUSE_LIMIT));
            budget = 2 * conflictBudget;
        }
        final SatAnswer[] model = new SatAnswer[1];
        final Spawn<SatAnswer> positive = spawnSolve(SatSequential.extend(cube, variable), inherited, budget);
        final Spawn<SatAnswer> negative = spawnSolve(SatSequential.extend(cube, -variable), inherited, budget);
        positive.onResult(answer -> keepFirstModel(model, answer));
        negative.onResult(answer -> keepFirstModel(model, answer));
        sync();
        return model[0] != null ? model[0] : SatAnswer.UNSATISFIABLE;
    }

    /** The inlet: the first model wins and the sibling still running is aborted. */
    private void keepFirstModel(final SatAnswer[] model, final SatAnswer answer) {
        if (answer.satisfiable() && model[0] == null) {
            model[0] = answer;
            abort();
        }
    }

    static void importAll(final CdclSolver solver, final int[] clauses) {
        int start = 0;
        for (int i = 0; i < clauses.length; i++) {
            if (clauses[i] == 0) {
                solver.importClause(java.util.Arrays.copyOfRange(clauses, start, i));
                start = i + 1;
            }
        }
    }

    static int[] flatten(final List<int[]> clauses) {
        int size = 0;
        for (final int[] clause : clauses) {
            size += clause.length + 1;
        }
        final int[] flat = new int[size];
        int k = 0;
        for (final int[] clause : clauses) {
            System.arraycopy(clause, 0, flat, k, clause.length);
            k += clause.length + 1; // the 0 ending it is already there
        }
        return flat;
    }
}
