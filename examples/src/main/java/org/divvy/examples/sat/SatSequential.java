package org.divvy.examples.sat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/** SAT, sequentially: one {@link CdclSolver} on the whole formula, without assumptions or budget. */
public final class SatSequential {
    private SatSequential() {
    }

    public static SatAnswer solve(final Cnf cnf) {
        final CdclSolver solver = new CdclSolver(cnf);
        return solver.solve() == CdclSolver.Result.SATISFIABLE ? SatAnswer.satisfiable(solver.model())
            : SatAnswer.UNSATISFIABLE;
    }

    /**
     * The variables (DIMACS numbers) by how many clauses they occur in, most first (ties: lower number first): the
     * static order in which cube-and-conquer splits the first levels, before any solver has activities to go by.
     */
    public static int[] variablesByOccurrence(final Cnf cnf) {
        final int[] occurrences = new int[cnf.variables() + 1];
        for (final int literal : cnf.literals()) {
            occurrences[Math.abs(literal)]++;
        }
        return IntStream.rangeClosed(1, cnf.variables()).boxed()
            .sorted(Comparator.comparingInt((Integer v) -> -occurrences[v]).thenComparing(Comparator.naturalOrder()))
            .mapToInt(Integer::intValue).toArray();
    }

    /** {@code cube} with {@code literal} appended. */
    static int[] extend(final int[] cube, final int literal) {
        final int[] extended = Arrays.copyOf(cube, cube.length + 1);
        extended[cube.length] = literal;
        return extended;
    }
}
