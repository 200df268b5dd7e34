package org.divvy.examples.sat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A conflict-driven clause-learning SAT solver in the MiniSat mould: two watched literals per clause, first-UIP
 * learning with clause minimisation, VSIDS branching with phase saving, Luby restarts, and deletion of learned
 * clauses by literal-block distance (LBD).
 *
 * <p>Built to share what it learns. Assumptions (a cube, for cube-and-conquer) are decisions on the first levels,
 * never unit clauses, so every learned clause follows from the formula alone and is valid for any other solver of
 * the same formula, whatever its cube. Learned clauses of at most {@code exportMaxSize} literals go to an
 * exporter as they are learned; clauses from elsewhere are queued by {@link #importClause} (from any thread) and
 * added at the next restart, when the solver is back at level 0. A conflict budget lets a caller stop the search
 * ({@link Result#UNKNOWN}) and resume it later with everything learned kept.
 *
 * <p>Literals inside are {@code 2 * variable + sign} (variables from 0); the API speaks DIMACS ({@code v}/{@code -v}).
 */
public final class CdclSolver {
    /** The outcome of {@link #solve}. */
    public enum Result {
        /** A model was found ({@link #model()}). */
        SATISFIABLE,
        /** No model under the assumptions given (or none at all: {@link #isUnsatisfiable()}). */
        UNSATISFIABLE,
        /** The conflict budget ran out first. */
        UNKNOWN
    }

    /**
     * Called by {@link #solve} at each restart, back at level 0 and before queued imports are added: where a
     * solver that shares what it learns reports its progress, takes in clauses from elsewhere
     * ({@link #importClause}) and asks whether to go on.
     */
    @FunctionalInterface
    public interface RestartListener {
        /** Returns false to stop: {@link #solve} then answers {@link Result#UNKNOWN}. */
        boolean atRestart(CdclSolver solver);
    }

    private static final byte UNASSIGNED = -1;
    private static final int RESTART_BASE = 100;

    /** A clause: its literals, the first two watched. */
    private static final class Clause {
        final int[] lits;
        final boolean learned;
        int lbd;
        double activity;
        boolean deleted;

        Clause(final int[] lits, final boolean learned) {
            this.lits = lits;
            this.learned = learned;
        }
    }

    /** A growable list of clauses without boxing or iterators (propagation's hot loop). */
    private static final class Watches {
        Clause[] clauses = new Clause[4];
        int size;

        void add(final Clause clause) {
            if (size == clauses.length) {
                clauses = Arrays.copyOf(clauses, size * 2);
            }
            clauses[size++] = clause;
        }
    }

    private final int variables;
    private final List<Clause> originals = new ArrayList<>();
    private final List<Clause> learneds = new ArrayList<>();
    /** watches[p]: the clauses watching literal p, visited when p becomes false. */
    private final Watches[] watches;
    private final byte[] values;
    private final int[] levels;
    private final Clause[] reasons;
    private final int[] trail;
    private int trailSize;
    private int propagated;
    private final int[] trailLimits;
    private int decisionLevel;
    private final boolean[] savedPhase;
    private final boolean[] seen;
    private final double[] activity;
    private double activityIncrement = 1.0;
    private static final double ACTIVITY_DECAY = 0.95;
    private double clauseIncrement = 1.0;
    private final VariableHeap heap;
    private boolean unsatisfiable;
    private long conflicts;
    private long decisions;
    private long propagations;
    private int maxLearned;
    private final int exportMaxSize;
    private final Consumer<int[]> exporter;
    private final List<int[]> imports = new ArrayList<>();
    private long imported;
    private long exported;
    private int[] assumptions = new int[0];
    private RestartListener restartListener = solver -> true;
    private final int[] levelStamp;
    private int stamp;

    /** A solver of {@code cnf} that exports nothing. */
    public CdclSolver(final Cnf cnf) {
        this(cnf, 0, clause -> { });
    }

    /**
     * A solver of {@code cnf}; each learned clause of at most {@code exportMaxSize} literals is passed to
     * {@code exporter} (as DIMACS literals, a fresh array) on the solver's thread as it is learned.
     */
    public CdclSolver(final Cnf cnf, final int exportMaxSize, final Consumer<int[]> exporter) {
        this.variables = cnf.variables();
        this.exportMaxSize = exportMaxSize;
        this.exporter = exporter;
        final int literals = 2 * variables;
        watches = new Watches[literals];
        for (int p = 0; p < literals; p++) {
            watches[p] = new Watches();
        }
        values = new byte[variables];
        Arrays.fill(values, UNASSIGNED);
        levels = new int[variables];
        reasons = new Clause[variables];
        trail = new int[variables];
        trailLimits = new int[variables + 1];
        savedPhase = new boolean[variables];
        seen = new boolean[variables];
        activity = new double[variables];
        levelStamp = new int[variables + 1];
        heap = new VariableHeap(activity);
        for (int v = 0; v < variables; v++) {
            heap.insert(v);
        }
        for (int i = 0; i < cnf.clauses() && !unsatisfiable; i++) {
            addClause(cnf.clause(i), false);
        }
        maxLearned = Math.max(2000, cnf.clauses() / 3);
    }

    private static int literal(final int dimacs) {
        return dimacs > 0 ? 2 * (dimacs - 1) : 2 * (-dimacs - 1) + 1;
    }

    private static int dimacs(final int literal) {
        final int variable = (literal >> 1) + 1;
        return (literal & 1) == 0 ? variable : -variable;
    }

    /** 1 true, 0 false, -1 unassigned. */
    private int value(final int literal) {
        final byte v = values[literal >> 1];
        return v == UNASSIGNED ? -1 : v ^ (literal & 1);
    }

    /**
     * Adds a clause at level 0 (DIMACS literals): simplified by the level-0 assignment; an empty result makes
     * the formula unsatisfiable, a unit is assigned and propagated.
     */
    private void addClause(final int[] dimacsLiterals, final boolean learned) {
        final int[] lits = new int[dimacsLiterals.length];
        int size = 0;
        for (final int d : dimacsLiterals) {
            final int p = literal(d);
            final int value = value(p);
            if (value == 1) {
                return; // satisfied at level 0
            }
            if (value == 0) {
                continue;
            }
            boolean duplicate = false;
            for (int k = 0; k < size; k++) {
                if (lits[k] == p) {
                    duplicate = true;
                } else if (lits[k] == (p ^ 1)) {
                    return; // tautology
                }
            }
            if (!duplicate) {
                lits[size++] = p;
            }
        }
        if (size == 0) {
            unsatisfiable = true;
        } else if (size == 1) {
            assign(lits[0], null);
            if (propagate() != null) {
                unsatisfiable = true;
            }
        } else {
            final Clause clause = new Clause(Arrays.copyOf(lits, size), learned);
            clause.lbd = size;
            attach(clause);
            (learned ? learneds : originals).add(clause);
        }
    }

    private void attach(final Clause clause) {
        watches[clause.lits[0]].add(clause);
        watches[clause.lits[1]].add(clause);
    }

    private void assign(final int literal, final Clause reason) {
        final int variable = literal >> 1;
        values[variable] = (byte)((literal & 1) ^ 1);
        levels[variable] = decisionLevel;
        reasons[variable] = reason;
        trail[trailSize++] = literal;
    }

    /** Unit propagation over the two watched literals; returns the conflicting clause or null. */
    private Clause propagate() {
        while (propagated < trailSize) {
            final int falsified = trail[propagated++] ^ 1;
            propagations++;
            final Watches list = watches[falsified];
            final Clause[] clauses = list.clauses;
            int kept = 0;
            int i = 0;
            final int size = list.size;
            while (i < size) {
                final Clause clause = clauses[i++];
                if (clause.deleted) {
                    continue;
                }
                final int[] lits = clause.lits;
                if (lits[0] == falsified) { // keep the falsified watch second
                    lits[0] = lits[1];
                    lits[1] = falsified;
                }
                if (value(lits[0]) == 1) {
                    clauses[kept++] = clause;
                    continue;
                }
                boolean moved = false;
                for (int k = 2; k < lits.length; k++) {
                    if (value(lits[k]) != 0) {
                        lits[1] = lits[k];
                        lits[k] = falsified;
                        watches[lits[1]].add(clause);
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    continue;
                }
                clauses[kept++] = clause;
                if (value(lits[0]) == 0) { // conflict: keep the rest of the list as it is
                    while (i < size) {
                        clauses[kept++] = clauses[i++];
                    }
                    list.size = kept;
                    propagated = trailSize;
                    return clause;
                }
                assign(lits[0], clause);
            }
            list.size = kept;
        }
        return null;
    }

    /**
     * Solves under {@code assumptionLiterals} (DIMACS) within {@code conflictBudget} conflicts (a negative budget
     * means none). May be called again, with other assumptions or more budget; what was learned is kept.
     */
    public Result solve(final int[] assumptionLiterals, final long conflictBudget) {
        if (unsatisfiable) {
            return Result.UNSATISFIABLE;
        }
        assumptions = new int[assumptionLiterals.length];
        for (int i = 0; i < assumptions.length; i++) {
            assumptions[i] = literal(assumptionLiterals[i]);
        }
        backtrack(0);
        addImports();
        if (unsatisfiable || propagate() != null) {
            unsatisfiable = true;
            return Result.UNSATISFIABLE;
        }
        final long budgetEnd = conflictBudget < 0 ? Long.MAX_VALUE : conflicts + conflictBudget;
        int restart = 0;
        while (true) {
            final long restartLimit = (long)(luby(restart++) * RESTART_BASE);
            final Result result = search(restartLimit, budgetEnd);
            if (result != Result.UNKNOWN || conflicts >= budgetEnd) {
                if (result == Result.UNKNOWN) {
                    backtrack(0);
                }
                return result;
            }
            backtrack(0);
            if (!restartListener.atRestart(this)) {
                return Result.UNKNOWN;
            }
            addImports();
            if (unsatisfiable) {
                return Result.UNSATISFIABLE;
            }
        }
    }

    /** From now on {@code listener} is called at each restart of {@link #solve}. */
    public void restartListener(final RestartListener listener) {
        this.restartListener = listener;
    }

    /** Solves without assumptions or budget. */
    public Result solve() {
        return solve(new int[0], -1);
    }

    private Result search(final long restartLimit, final long budgetEnd) {
        long conflictsHere = 0;
        while (true) {
            final Clause conflict = propagate();
            if (conflict != null) {
                conflicts++;
                conflictsHere++;
                if (decisionLevel == 0) {
                    unsatisfiable = true;
                    return Result.UNSATISFIABLE;
                }
                if (decisionLevel <= assumptionLevels()) {
                    // a conflict among the assumptions and their consequences: no model under them
                    final int backjump = analyze(conflict);
                    learnFromAnalysis(backjump);
                    backtrack(0);
                    return Result.UNSATISFIABLE;
                }
                final int backjump = analyze(conflict);
                learnFromAnalysis(backjump);
                decayActivities();
                continue;
            }
            if (conflictsHere >= restartLimit || conflicts >= budgetEnd) {
                return Result.UNKNOWN;
            }
            if (learneds.size() >= maxLearned) {
                reduceLearned();
            }
            int next = -1;
            while (decisionLevel < assumptions.length) {
                final int assumption = assumptions[decisionLevel];
                final int value = value(assumption);
                if (value == 1) {
                    newLevel(); // already true: an empty level keeps levels and assumptions aligned
                } else if (value == 0) {
                    backtrack(0);
                    return Result.UNSATISFIABLE;
                } else {
                    next = assumption;
                    break;
                }
            }
            if (next < 0) {
                next = pickBranchLiteral();
                if (next < 0) {
                    return Result.SATISFIABLE;
                }
                decisions++;
            }
            newLevel();
            assign(next, null);
        }
    }

    private int assumptionLevels() {
        return assumptions.length;
    }

    private void newLevel() {
        trailLimits[decisionLevel++] = trailSize;
    }

    private int pickBranchLiteral() {
        while (!heap.isEmpty()) {
            final int variable = heap.removeMax();
            if (values[variable] == UNASSIGNED) {
                return 2 * variable + (savedPhase[variable] ? 0 : 1);
            }
        }
        return -1;
    }

    private int[] learnt = new int[16];
    private int learntSize;
    private final int[] analyzeStack = new int[64];

    /** First-UIP conflict analysis into {@code learnt[0..learntSize)}, asserting literal first; returns the backjump level. */
    private int analyze(final Clause conflict) {
        learntSize = 1; // slot 0 for the asserting literal
        int pathCount = 0;
        int index = trailSize - 1;
        int asserting = -1;
        Clause reason = conflict;
        do {
            if (reason.learned) {
                bumpClause(reason);
            }
            final int[] lits = reason.lits;
            for (int k = asserting < 0 ? 0 : 1; k < lits.length; k++) {
                final int q = lits[k];
                final int variable = q >> 1;
                if (!seen[variable] && levels[variable] > 0) {
                    bumpVariable(variable);
                    seen[variable] = true;
                    if (levels[variable] >= decisionLevel) {
                        pathCount++;
                    } else {
                        if (learntSize == learnt.length) {
                            learnt = Arrays.copyOf(learnt, learntSize * 2);
                        }
                        learnt[learntSize++] = q;
                    }
                }
            }
            while (!seen[trail[index] >> 1]) {
                index--;
            }
            asserting = trail[index];
            index--;
            reason = reasons[asserting >> 1];
            seen[asserting >> 1] = false;
            pathCount--;
            if (pathCount > 0 && reason.lits[0] != asserting) {
                // the implied literal is always first in its reason (propagate assigns lits[0])
                throw new IllegalStateException("reason clause does not start with its implied literal");
            }
        } while (pathCount > 0);
        learnt[0] = asserting ^ 1;
        minimize();
        for (int k = 1; k < learntSize; k++) { // clear the marks left by analysis
            seen[learnt[k] >> 1] = false;
        }
        // the backjump level: the highest level among the other literals, which goes second (it is watched)
        int backjump = 0;
        if (learntSize > 1) {
            int max = 1;
            for (int k = 2; k < learntSize; k++) {
                if (levels[learnt[k] >> 1] > levels[learnt[max] >> 1]) {
                    max = k;
                }
            }
            final int t = learnt[1];
            learnt[1] = learnt[max];
            learnt[max] = t;
            backjump = levels[learnt[1] >> 1];
        }
        return backjump;
    }

    /** Drops literals implied by the others' reasons, one step deep (MiniSat's "basic" minimisation). */
    private void minimize() {
        int kept = 1;
        for (int k = 1; k < learntSize; k++) {
            final int q = learnt[k];
            final Clause reason = reasons[q >> 1];
            boolean redundant = reason != null;
            if (redundant) {
                for (int j = 1; j < reason.lits.length; j++) {
                    final int variable = reason.lits[j] >> 1;
                    if (!seen[variable] && levels[variable] > 0) {
                        redundant = false;
                        break;
                    }
                }
            }
            if (redundant) {
                seen[q >> 1] = false;
            } else {
                learnt[kept++] = q;
            }
        }
        learntSize = kept;
    }

    private void learnFromAnalysis(final int backjump) {
        backtrack(backjump);
        final int[] lits = Arrays.copyOf(learnt, learntSize);
        if (learntSize <= exportMaxSize) {
            final int[] out = new int[learntSize];
            for (int k = 0; k < learntSize; k++) {
                out[k] = dimacs(lits[k]);
            }
            exported++;
            exporter.accept(out);
        }
        if (learntSize == 1) {
            assign(lits[0], null); // at level 0 now
            return;
        }
        final Clause clause = new Clause(lits, true);
        clause.lbd = lbd(lits);
        bumpClause(clause);
        attach(clause);
        learneds.add(clause);
        assign(lits[0], clause);
    }

    /** The number of distinct decision levels among the literals (Audemard and Simon's glue). */
    private int lbd(final int[] lits) {
        stamp++;
        int count = 0;
        for (final int q : lits) {
            final int level = levels[q >> 1];
            if (levelStamp[level] != stamp) {
                levelStamp[level] = stamp;
                count++;
            }
        }
        return count;
    }

    private void backtrack(final int level) {
        if (decisionLevel <= level) {
            return;
        }
        for (int i = trailSize - 1; i >= trailLimits[level]; i--) {
            final int variable = trail[i] >> 1;
            savedPhase[variable] = (trail[i] & 1) == 0;
            values[variable] = UNASSIGNED;
            reasons[variable] = null;
            if (!heap.contains(variable)) {
                heap.insert(variable);
            }
        }
        trailSize = trailLimits[level];
        propagated = trailSize;
        decisionLevel = level;
    }

    private void bumpVariable(final int variable) {
        activity[variable] += activityIncrement;
        if (activity[variable] > 1e100) {
            for (int v = 0; v < variables; v++) {
                activity[v] *= 1e-100;
            }
            activityIncrement *= 1e-100;
        }
        if (heap.contains(variable)) {
            heap.increased(variable);
        }
    }

    private void bumpClause(final Clause clause) {
        clause.activity += clauseIncrement;
        if (clause.activity > 1e20) {
            for (final Clause c : learneds) {
                c.activity *= 1e-20;
            }
            clauseIncrement *= 1e-20;
        }
    }

    private void decayActivities() {
        activityIncrement /= ACTIVITY_DECAY;
        clauseIncrement /= 0.999;
    }

    /** Deletes the worse half of the learned clauses (highest LBD, then least active), keeping glue clauses and reasons. */
    private void reduceLearned() {
        learneds.sort((a, b) -> a.lbd != b.lbd ? Integer.compare(b.lbd, a.lbd) : Double.compare(a.activity, b.activity));
        final int half = learneds.size() / 2;
        final List<Clause> kept = new ArrayList<>(learneds.size());
        for (int i = 0; i < learneds.size(); i++) {
            final Clause clause = learneds.get(i);
            final boolean locked = reasons[clause.lits[0] >> 1] == clause && value(clause.lits[0]) == 1;
            if (i < half && clause.lbd > 2 && !locked) {
                clause.deleted = true; // dropped lazily from the watch lists by propagate
            } else {
                kept.add(clause);
            }
        }
        learneds.clear();
        learneds.addAll(kept);
        maxLearned += maxLearned / 10;
    }

    /**
     * Queues a clause learned by another solver of the same formula (DIMACS literals); it is added at the next
     * restart. Any thread may call it.
     */
    public void importClause(final int[] dimacsLiterals) {
        synchronized (imports) {
            imports.add(dimacsLiterals.clone());
        }
    }

    private void addImports() {
        final List<int[]> batch;
        synchronized (imports) {
            if (imports.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(imports);
            imports.clear();
        }
        for (final int[] clause : batch) {
            if (unsatisfiable) {
                return;
            }
            imported++;
            addClause(clause, true);
        }
    }

    /** The model after {@link Result#SATISFIABLE}: entry {@code v} is variable {@code v}'s value, entry 0 unused. */
    public boolean[] model() {
        final boolean[] model = new boolean[variables + 1];
        for (int v = 0; v < variables; v++) {
            model[v + 1] = values[v] == 1;
        }
        return model;
    }

    /** Whether the formula itself (not only under the last assumptions) has been proved unsatisfiable. */
    public boolean isUnsatisfiable() {
        return unsatisfiable;
    }

    /**
     * The unassigned variable (DIMACS number) of highest activity at level 0 outside {@code excluded}, or 0 when
     * every variable is assigned; where cube-and-conquer splits next.
     */
    public int mostActiveFreeVariable(final int[] excluded) {
        int best = -1;
        for (int v = 0; v < variables; v++) {
            if (values[v] != UNASSIGNED && levels[v] == 0 || isExcluded(v + 1, excluded)) {
                continue;
            }
            if (best < 0 || activity[v] > activity[best]) {
                best = v;
            }
        }
        return best + 1;
    }

    private static boolean isExcluded(final int variable, final int[] excluded) {
        for (final int literal : excluded) {
            if (Math.abs(literal) == variable) {
                return true;
            }
        }
        return false;
    }

    /** The learned clauses kept now with at most {@code maxSize} literals (DIMACS), lowest LBD first, at most {@code limit}. */
    public List<int[]> shortLearnedClauses(final int maxSize, final int limit) {
        final List<Clause> shortOnes = new ArrayList<>();
        for (final Clause clause : learneds) {
            if (!clause.deleted && clause.lits.length <= maxSize) {
                shortOnes.add(clause);
            }
        }
        shortOnes.sort((a, b) -> Integer.compare(a.lbd, b.lbd));
        final List<int[]> out = new ArrayList<>();
        for (int i = 0; i < shortOnes.size() && i < limit; i++) {
            final int[] lits = shortOnes.get(i).lits;
            final int[] d = new int[lits.length];
            for (int k = 0; k < lits.length; k++) {
                d[k] = dimacs(lits[k]);
            }
            out.add(d);
        }
        return out;
    }

    public long conflicts() {
        return conflicts;
    }

    public long decisions() {
        return decisions;
    }

    public long propagations() {
        return propagations;
    }

    public long importedClauses() {
        return imported;
    }

    public long exportedClauses() {
        return exported;
    }

    /** Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, ... (0-based). */
    static double luby(final int index) {
        int size = 1;
        int sequence = 0;
        while (size < index + 1) {
            sequence++;
            size = 2 * size + 1;
        }
        int x = index;
        while (size - 1 != x) {
            size = (size - 1) >> 1;
            sequence--;
            x = x % size;
        }
        return Math.pow(2, sequence);
    }

    /** A binary max-heap of variables ordered by activity, with positions for in-place updates. */
    private static final class VariableHeap {
        private final double[] activity;
        private final int[] heap;
        private final int[] position;
        private int size;

        VariableHeap(final double[] activity) {
            this.activity = activity;
            this.heap = new int[activity.length];
            this.position = new int[activity.length];
            Arrays.fill(position, -1);
        }

        boolean isEmpty() {
            return size == 0;
        }

        boolean contains(final int variable) {
            return position[variable] >= 0;
        }

        void insert(final int variable) {
            heap[size] = variable;
            position[variable] = size;
            up(size++);
        }

        void increased(final int variable) {
            up(position[variable]);
        }

        int removeMax() {
            final int top = heap[0];
            position[top] = -1;
            size--;
            if (size > 0) {
                heap[0] = heap[size];
                position[heap[0]] = 0;
                down(0);
            }
            return top;
        }

        private void up(int i) {
            final int variable = heap[i];
            while (i > 0) {
                final int parent = (i - 1) >> 1;
                if (activity[heap[parent]] >= activity[variable]) {
                    break;
                }
                heap[i] = heap[parent];
                position[heap[i]] = i;
                i = parent;
            }
            heap[i] = variable;
            position[variable] = i;
        }

        private void down(int i) {
            final int variable = heap[i];
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && activity[heap[child + 1]] > activity[heap[child]]) {
                    child++;
                }
                if (activity[heap[child]] <= activity[variable]) {
                    break;
                }
                heap[i] = heap[child];
                position[heap[i]] = i;
                i = child;
            }
            heap[i] = variable;
            position[variable] = i;
        }
    }
}
