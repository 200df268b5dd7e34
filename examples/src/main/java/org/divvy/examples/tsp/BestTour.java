package org.divvy.examples.tsp;

import org.divvy.annotations.SharedObject;
import org.divvy.annotations.Write;

/**
 * The shortest tour length found so far, shared by every job of a divide-and-share search ({@link SharingTsp}):
 * a job that completes a shorter tour offers it (one write, shipped to every replica), every job prunes with its
 * replica's value. No guard: a stale or lost offer only makes a replica's bound larger than the best known, and a
 * larger bound prunes less but never cuts the optimal tour; the answer itself travels by return value, and each job
 * returns the lowest value it pruned with (a replica's value can rise again when a fetched state replaces it, so
 * reading it again at the end would not do). Since which children a job prunes depends on this value, a pruned child
 * keeps its index ({@code skipSpawn()}): each stamp then names the same subtree in every run, as the results reused
 * after a crash need. Offers commute and are idempotent ({@code min}), so best effort's reordering and duplicates
 * change nothing.
 */
@SharedObject
public class BestTour {
    int length = TspSequential.NO_TOUR;

    /** For the generated replica subclass's state. */
    public BestTour() {
    }

    public BestTour(final int length) {
        this.length = length;
    }

    /** Lowers the bound to {@code tour} if it is shorter. */
    @Write
    public void offer(final int tour) {
        if (tour < length) {
            length = tour;
        }
    }

    /** The shortest tour length known here, or {@link TspSequential#NO_TOUR}. */
    public int length() {
        return length;
    }
}
