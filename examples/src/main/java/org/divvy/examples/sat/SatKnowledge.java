package org.divvy.examples.sat;

import java.util.Arrays;
import java.util.function.Consumer;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * What the jobs of a divide-and-share SAT run know together (Satin++'s SAT solver): whether a model has been found
 * (the solution flag: every job stops at its next restart), how many conflicts all jobs have spent (the global
 * conflict count that sets how long a cube searches before it splits), and a store of short learned clauses
 * (at most {@link SatShare#SHARED_CLAUSE_SIZE} literals), which every job imports at its solver's restarts.
 *
 * <p>Best effort is enough for all three: the flag only ever turns true and carries its model, a job that
 * misses it runs on until the next write reaches it, and a job that sees it answers with that model once it has
 * checked it against the formula (a replica whose model does not check keeps searching); the count only steers how soon cubes split; a learned clause follows from
 * the formula alone, so any subset of the store, in any order, with duplicates, is sound to import.
 */
@SharedObject
public class SatKnowledge {
    /**
     * At most this many ints in the store (about 21,800 clauses of 10 literals, each taking 2 + 10 ints; more of
     * shorter ones), so a replica stays small enough to fetch.
     */
    static final int MAX_STORE_INTS = 1 << 18;

    boolean solved;
    /** The first model found, written with the flag so no replica has one without the other (empty until then). */
    boolean[] model;
    long conflicts;
    /** The learned clauses, one after the other, each as its origin, its length, then its DIMACS literals. */
    int[] store;
    int used;

    public SatKnowledge() {
        store = new int[1024];
        model = new boolean[0];
    }

    /**
     * The solution flag with its model: a job found {@code found} (it returns it up the tree; the others may stop
     * and return it too). The model travels with the flag because a job that stops on the flag must answer with a
     * model, not "none here": the node that found it may die before its result reaches the job's owner, and the
     * re-run job would then answer UNSATISFIABLE for a satisfiable formula. The first model is kept.
     */
    @Write
    public void modelFound(final boolean[] found) {
        if (!solved) {
            solved = true;
            model = found;
        }
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

    /** A copy of the model that came with the flag: empty while not {@link #solved()}. */
    public boolean[] model() {
        return model.clone();
    }

    public long conflicts() {
        return conflicts;
    }

    /** Whether the store has no room for another clause: writers stop sending clauses then. */
    public boolean isFull() {
        return used + 2 + SatShare.SHARED_CLAUSE_SIZE > MAX_STORE_INTS;
    }

    /** How many ints of the store are used. */
    public int used() {
        return used;
    }

    /**
     * Passes each stored clause the {@code cursor} has not read yet and not learned by {@code origin} to
     * {@code importer}, and moves the cursor past them. One call reads many clauses under one lock.
     *
     * <p>The cursor's position is an offset into the store array it read. When the array is another one (grown by
     * a write, or replaced by a fetched state, which may hold other clauses in another order), the position is
     * moved back to the last clause boundary of the new array at or before it: a position taken from the old array
     * could point into the middle of a clause here and import garbage. Clauses skipped that way are only lost
     * pruning (any subset of the store is sound to import).
     */
    public void clausesFrom(final StoreCursor cursor, final int origin, final Consumer<int[]> importer) {
        int position = cursor.position;
        if (cursor.store != store) {
            position = clauseBoundaryAtOrBefore(Math.min(position, used));
            cursor.store = store;
        }
        position = Math.min(position, used);
        while (position < used) {
            final int length = store[position + 1];
            if (store[position] != origin) {
                importer.accept(Arrays.copyOfRange(store, position + 2, position + 2 + length));
            }
            position += 2 + length;
        }
        cursor.position = position;
    }

    private int clauseBoundaryAtOrBefore(final int limit) {
        int boundary = 0;
        while (boundary + 2 <= used && boundary + 2 + store[boundary + 1] <= limit) {
            boundary += 2 + store[boundary + 1];
        }
        return boundary;
    }
}
