package org.divvy.sharing;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/** A shared best bound, as TSP keeps its shortest tour: lowered by writes, read by every job. */
@SharedObject
public class Best {
    int value = Integer.MAX_VALUE;

    public Best() {
    }

    @Write
    public void offer(final int candidate) {
        if (candidate < value) {
            value = candidate;
        }
    }

    public int value() {
        return value;
    }
}
