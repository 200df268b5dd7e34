package org.divvy.examples.sat;

import java.util.Arrays;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * What the jobs of a divide-and-share SAT run know together (Satin++'s SAT solver): whether a model has been found
 * (the solution flag: every job stops at its next restart), how many conflicts all jobs have spent (the global
 * conflict count that sets how long a cube searches before it splits), and a store of short learned clauses
 * (at most {@link SatShare#SHARED_CLAUSE_SIZE} literals), which every job imports at its solver's restarts.
 *
 * <p>Best effort is enough for all three: the flag only ever turns true, and a job that misses it runs on
 * until the next write reaches it; the count only steers how soon cubes split; a learned clause follows from
 * the formula alone, so any subset of the store, in any order, with duplicates, is sound to import.
 */
@SharedObject
public class SatKnowledge {
    /** At most this many ints in the store (about 25,000 clauses), so a replica stays small enough to fetch. */
    static final int MAX_STORE_INTS = 1 << 18;

    boolean solved;
    long conflicts;
    /** The learned clauses, one after the other, each as its origin, its length, then its DIMACS literals. */
    int[] store;
    int used;

    public SatKnowledge() {
        store = new int[1024];
    }

    /** The solution flag: a job found a model (it returns it up the tree; the others may stop). */
    @Write
    public void modelFound() {
        solved = true;
    }

    /** {@code spent} more conflicts were spent by some job. */
    @Write
    public void conflictsSpent(final long spent) {
        conflicts += spent;
    }

    /**
     * A clause learned by the job numbered {@code origin}; not kept once the store is full (a replica's state is
     * fetched whole by a node's first job).
     */
    @Write
    public void learned(final int origin, final int[] clause) {
        final int size = 2 + clause.length;
        if (used + size > MAX_STORE_INTS) {
            return;
        }
        if (used + size > store.length) {
            store = Arrays.copyOf(store, Math.min(MAX_STORE_INTS, Math.max(2 * store.length, used + size)));
        }
        store[used] = origin;
        store[used + 1] = clause.length;
        System.arraycopy(clause, 0, store, used + 2, clause.length);
        used += size;
    }

    public boolean solved() {
        return solved;
    }

    public long conflicts() {
        return conflicts;
    }

    /** Whether the store has no room for another clause: writers stop sending clauses then. */
    public boolean isFull() {
        return used + 2 + SatShare.SHARED_CLAUSE_SIZE > MAX_STORE_INTS;
    }

    /** How many ints of the store are used: the position a reader has read up to, for {@link #clausesFrom}. */
    public int used() {
        return used;
    }

    /**
     * Passes each stored clause from position {@code from} (a value {@link #used()} returned) not learned by
     * {@code origin} to {@code solver}; returns the position read up to. One call reads many clauses under one lock.
     */
    public int clausesFrom(final int from, final int origin, final CdclSolver solver) {
        int position = Math.min(from, used);
        while (position < used) {
            final int length = store[position + 1];
            if (store[position] != origin) {
                solver.importClause(Arrays.copyOfRange(store, position + 2, position + 2 + length));
            }
            position += 2 + length;
        }
        return position;
    }
}
