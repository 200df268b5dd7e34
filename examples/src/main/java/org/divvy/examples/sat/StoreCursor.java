package org.divvy.examples.sat;

/**
 * How far one reader has read a {@link SatKnowledge}'s clause store: the store array it read and the offset in
 * it. The array is kept because an offset only means something in the array it was taken from (a fetched state
 * replaces the array, and its clauses may lie at other offsets). One per job's solver, on its thread.
 */
public final class StoreCursor {
    int[] store;
    int position;

    /** The offset read up to, in the array last read. */
    public int position() {
        return position;
    }
}
