package org.divvy.examples.portable;

import org.divvy.annotations.Wire;

/** A mutable @Wire node; a chain of them closes into a ring, which travels as a ring (back-references). */
@Wire
public final class Ring {
    int value;
    Ring next;

    public Ring() {
    }

    /** A ring of {@code size} nodes valued 0 .. size-1; returns node 0. */
    static Ring of(final int size) {
        final Ring first = new Ring();
        Ring last = first;
        for (int i = 1; i < size; i++) {
            final Ring node = new Ring();
            node.value = i;
            last.next = node;
            last = node;
        }
        last.next = first;
        return first;
    }
}
