package org.divvy.perf.single;

import java.util.concurrent.ForkJoinPool;

/**
 * One benchmark: a problem of a fixed size that each {@link Contender} solves, with a way to check the
 * answer. Subclasses are stateless apart from their size parameters, so a run can be repeated any number
 * of times.
 *
 * @param <I> the input of one run, built fresh and untimed before each run (for example a copy of the
 *            array to sort, so no run sees another's output)
 * @param <A> the answer
 */
public abstract class Benchmark<I, A> {
    private final String id;
    private final String description;
    private final long workUnits;
    private final String workUnitName;

    /**
     * @param id           short name used by {@code --only}, in tables and in CSV ({@code fib35})
     * @param description  what is computed and how it is split, for the table and README
     * @param workUnits    how many units of work one run does (fib calls, tree nodes), for the
     *                     per-unit time; 0 when no unit is meaningful
     * @param workUnitName the unit ({@code "fib call"}); empty when {@code workUnits} is 0
     */
    protected Benchmark(final String id, final String description, final long workUnits, final String workUnitName) {
        if (workUnits < 0) {
            throw new IllegalArgumentException("workUnits=" + workUnits + ", must be >= 0");
        }
        this.id = id;
        this.description = description;
        this.workUnits = workUnits;
        this.workUnitName = workUnitName;
    }

    public final String id() {
        return id;
    }

    public final String description() {
        return description;
    }

    public final long workUnits() {
        return workUnits;
    }

    public final String workUnitName() {
        return workUnitName;
    }

    /** Builds the input of one run; not timed. */
    public abstract I newInput();

    /** Solves on the calling thread with the examples' sequential code. */
    public abstract A runSequential(I input);

    /** Solves on {@code pool} with the ForkJoinPool version ({@link org.divvy.perf.fj}). */
    public abstract A runForkJoin(ForkJoinPool pool, I input);

    /** Solves on a Divvy node with the examples' spawnable code. */
    public abstract A runDivvy(DivvyEngine divvy, I input);

    /** Throws {@link WrongAnswerException} naming {@code contender} when {@code answer} is wrong. */
    public abstract void checkAnswer(Contender contender, A answer);

    /** The answer as a short human-readable string, for the table and CSV. */
    public abstract String describeAnswer(A answer);

    /** Runs {@code contender} once on {@code input}. */
    final A run(final Contender contender, final Engines engines, final I input) {
        switch (contender) {
            case SEQUENTIAL:
                return runSequential(input);
            case FORK_JOIN:
                return runForkJoin(engines.forkJoinPool(), input);
            case DIVVY:
                return runDivvy(engines.divvy(), input);
            default:
                throw new IllegalStateException("contender=" + contender);
        }
    }
}
