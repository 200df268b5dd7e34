package org.divvy.examples.sat;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import org.divvy.Root;
import org.divvy.Spawn;
import org.divvy.annotations.Spawnable;

/**
 * SAT with Divvy by cube and conquer, divide and share (Satin++'s SAT solver): the tree of cubes is {@link Sat}'s,
 * but what the jobs learn is shared through one {@link SatKnowledge} instead of passed down the tree.
 *
 * <ul>
 *   <li>Learned clauses of at most {@link #SHARED_CLAUSE_SIZE} literals are written to the shared clause store as
 *       they are learned (one write each: combining makes them few messages), and every job's solver imports the
 *       others' at each restart, so a clause learned in one cube prunes all the others, on every node.</li>
 *   <li>The global conflict count: each job adds its conflicts at each restart; a cube searches for
 *       {@code max(leafConflicts, globalConflicts / 2^cubeDepth)} conflicts (the average spent per first-level
 *       cube so far) before it splits, so the budget grows with the whole run's effort, as Satin++'s restart
 *       bound did, instead of by depth.</li>
 *   <li>The solution flag: a job that finds a model sets it with the model (one write) and returns the model;
 *       every other job sees it at its next restart or spawn and stops, answering with that model once it
 *       satisfies the formula (a parent returns any child's model), so the root gets a model without inlets or
 *       abort: what pure divide and conquer needs abort for. A stopped job never answers "none here": if the node
 *       that found the model dies before its result reaches its owner, the re-run job still answers the model.
 *       A model satisfies the formula, not necessarily the stopped job's cube; only the root's answer counts.</li>
 * </ul>
 */
public class SatShare implements SatShareSpawner {
    /** Learned clauses up to this many literals are shared (Satin++'s global learning: 10). */
    public static final int SHARED_CLAUSE_SIZE = 10;

    Cnf cnf;
    /** Variables by occurrence count, most first: the split order of the first {@link #cubeDepth} levels. */
    int[] splitOrder;
    int cubeDepth;
    long leafConflicts;

    /** For the generated receiver codec. */
    public SatShare() {
    }

    public SatShare(final Cnf cnf, final int cubeDepth, final long leafConflicts) {
        this.cnf = cnf;
        this.splitOrder = SatSequential.variablesByOccurrence(cnf);
        this.cubeDepth = cubeDepth;
        this.leafConflicts = leafConflicts;
    }

    /** Solving the whole formula with fresh shared knowledge, as a run's root. */
    public Root<SatAnswer> solveAll() {
        final SatKnowledge knowledge = new SatKnowledgeShared();
        return Root.of(() -> spawnSolve(new int[0], knowledge));
    }

    /**
     * A model that makes every literal of {@code cube} true, or "none here" when none does; or, once another job
     * found one, that job's model (it satisfies the formula, not necessarily this cube: only the root's answer
     * counts, and it must be a model whenever one exists).
     */
    @Spawnable
    public SatAnswer solve(final int[] cube, final SatKnowledge knowledge) {
        final SatAnswer foundElsewhere = modelFoundElsewhere(knowledge);
        if (foundElsewhere != null) {
            return foundElsewhere; // stopped: answer with the model the flag carried, never "none here"
        }
        final int variable;
        if (cube.length < cubeDepth && cube.length < splitOrder.length) {
            variable = splitOrder[cube.length];
        } else {
            final int origin = ThreadLocalRandom.current().nextInt();
            final CdclSolver solver = new CdclSolver(cnf, SHARED_CLAUSE_SIZE, clause -> {
                if (!knowledge.isFull()) {
                    knowledge.learned(origin, clause);
                }
            });
            final SharingListener listener = new SharingListener(cnf, knowledge, origin, solver);
            listener.importNew();
            solver.restartListener(listener);
            final long budget = Math.max(leafConflicts, knowledge.conflicts() >> Math.min(cubeDepth, 62));
            final CdclSolver.Result result = solver.solve(cube, budget);
            listener.reportConflicts(solver);
            if (result == CdclSolver.Result.SATISFIABLE) {
                return found(solver, knowledge);
            }
            if (result == CdclSolver.Result.UNSATISFIABLE) {
                return SatAnswer.UNSATISFIABLE;
            }
            final SatAnswer stopped = modelFoundElsewhere(knowledge);
            if (stopped != null) {
                return stopped;
            }
            final int free = solver.mostActiveFreeVariable(cube);
            if (free == 0) { // nothing left to split on: finish here (the flag still stops it at a restart)
                while (true) { // a stop whose model a fetched state then took away searches on
                    solver.restartListener(listener);
                    final CdclSolver.Result last = solver.solve(cube, -1);
                    listener.reportConflicts(solver);
                    if (last == CdclSolver.Result.SATISFIABLE) {
                        return found(solver, knowledge);
                    }
                    if (last == CdclSolver.Result.UNSATISFIABLE) {
                        return SatAnswer.UNSATISFIABLE;
                    }
                    final SatAnswer elsewhere = modelFoundElsewhere(knowledge);
                    if (elsewhere != null) {
                        return elsewhere;
                    }
                }
            }
            variable = free;
        }
        final Spawn<SatAnswer> positive = spawnSolve(SatSequential.extend(cube, variable), knowledge);
        final Spawn<SatAnswer> negative = spawnSolve(SatSequential.extend(cube, -variable), knowledge);
        sync();
        if (positive.get().satisfiable()) {
            return positive.get();
        }
        return negative.get();
    }

    private static SatAnswer found(final CdclSolver solver, final SatKnowledge knowledge) {
        final boolean[] model = solver.model();
        knowledge.modelFound(model);
        return SatAnswer.satisfiable(model);
    }

    /**
     * The model another job found, if this replica has the flag and a model that satisfies the formula; null
     * otherwise, and the job searches on: a flag without a model that checks must never become "unsatisfiable".
     */
    static SatAnswer modelFoundElsewhere(final Cnf cnf, final SatKnowledge knowledge) {
        if (!knowledge.solved()) {
            return null;
        }
        final boolean[] model = knowledge.model();
        return cnf.satisfiedBy(model) ? SatAnswer.satisfiable(model) : null;
    }

    private SatAnswer modelFoundElsewhere(final SatKnowledge knowledge) {
        return modelFoundElsewhere(cnf, knowledge);
    }

    /** At each restart: adds the conflicts spent since the last one to the global count, imports new clauses, stops once solved. */
    private static final class SharingListener implements CdclSolver.RestartListener {
        private final Cnf cnf;
        private final SatKnowledge knowledge;
        private final int origin;
        private final StoreCursor cursor = new StoreCursor();
        private final Consumer<int[]> importer;
        private long reported;

        SharingListener(final Cnf cnf, final SatKnowledge knowledge, final int origin, final CdclSolver solver) {
            this.cnf = cnf;
            this.knowledge = knowledge;
            this.origin = origin;
            this.importer = solver::importClause;
        }

        void importNew() {
            knowledge.clausesFrom(cursor, origin, importer);
        }

        void reportConflicts(final CdclSolver solver) {
            final long spent = solver.conflicts() - reported;
            if (spent > 0) {
                knowledge.conflictsSpent(spent);
                reported = solver.conflicts();
            }
        }

        @Override
        public boolean atRestart(final CdclSolver solver) {
            reportConflicts(solver);
            if (modelFoundElsewhere(cnf, knowledge) != null) {
                return false;
            }
            importNew();
            return true;
        }
    }
}
