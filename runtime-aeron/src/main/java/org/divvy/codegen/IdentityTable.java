package org.divvy.codegen;

import java.util.Arrays;

/**
 * Objects by identity to the index they were written at: the writer's half of back-references. Open
 * addressing on {@link System#identityHashCode}, no boxing; empty until a type that can share or form a
 * cycle is written, and then cleared per message.
 */
final class IdentityTable {
    private static final int INITIAL_CAPACITY = 64;
    /** A table grown past this is dropped at {@link #clear()} instead of wiped, so one huge graph does not keep its memory. */
    private static final int KEEP_CAPACITY = 1 << 16;

    private Object[] keys = new Object[INITIAL_CAPACITY];
    private int[] indexes = new int[INITIAL_CAPACITY];
    private int size;

    int size() {
        return size;
    }

    /** The index of {@code object}, or -1 if it is not in the table. */
    int indexOf(final Object object) {
        final int mask = keys.length - 1;
        for (int slot = hash(object) & mask; ; slot = (slot + 1) & mask) {
            final Object key = keys[slot];
            if (key == null) {
                return -1;
            }
            if (key == object) {
                return indexes[slot];
            }
        }
    }

    /** Adds {@code object}, which is not in the table, with the next index; returns that index. */
    int add(final Object object) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        final int index = size++;
        insert(keys, indexes, object, index);
        return index;
    }

    void clear() {
        if (size == 0) {
            return;
        }
        if (keys.length > KEEP_CAPACITY) {
            keys = new Object[INITIAL_CAPACITY];
            indexes = new int[INITIAL_CAPACITY];
        } else {
            Arrays.fill(keys, null);
        }
        size = 0;
    }

    private void grow() {
        final Object[] oldKeys = keys;
        final int[] oldIndexes = indexes;
        final Object[] newKeys = new Object[oldKeys.length * 2];
        final int[] newIndexes = new int[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                insert(newKeys, newIndexes, oldKeys[i], oldIndexes[i]);
            }
        }
        keys = newKeys;
        indexes = newIndexes;
    }

    private static void insert(final Object[] keys, final int[] indexes, final Object object, final int index) {
        final int mask = keys.length - 1;
        int slot = hash(object) & mask;
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = object;
        indexes[slot] = index;
    }

    private static int hash(final Object object) {
        final int h = System.identityHashCode(object) * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
