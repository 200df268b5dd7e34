package org.divvy.examples.tsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.scheduling.Scheduler;
import org.divvy.scheduling.Stamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job's identity after a crash is its stamp (its parent's, followed by its child index), and the orphan results a
 * master reuses when it takes over are found by stamp (thesis §2.4, §3.3). Which children the divide-and-share TSP
 * prunes depends on the shared bound, which differs from run to run: the dead master's run started with no tour,
 * the new master's replica already holds a good one. Each stamp must still name the same subtree in both runs, or
 * the new master reuses another city's result for a subtree (a 3-node run with the master killed answered 6322 for
 * 6271 so, SharedObjectsRunTest).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SharingTspStampsTest {
    private static final TspInstance INSTANCE = TspInstance.random(16, 42);
    private static final int SPAWN_DEPTH = 3;

    @Test
    void shouldGiveEachSubtreeTheSameStampWhateverTheSharedBound() throws Exception {
        final int optimum = TspSequential.heldKarp(INSTANCE);
        final double[] costs = TspSequential.transformedCosts(INSTANCE, TspSequential.penalties(INSTANCE));
        final Map<Stamp, String> noTourYet = subtreesByStamp(INSTANCE, costs, TspSequential.NO_TOUR);
        // the new master's replica holds a tour 1% longer than the optimum, as in the 3-node run (6322 for 6271)
        final Map<Stamp, String> goodTourKnown = subtreesByStamp(INSTANCE, costs, optimum + optimum / 100);
        assertTrue(goodTourKnown.keySet().stream().filter(stamp -> stamp.depth() == 1).count()
                < noTourYet.keySet().stream().filter(stamp -> stamp.depth() == 1).count(),
            "the good tour prunes children of the root that the run without a tour spawns (else this test shows "
                + "nothing): " + goodTourKnown.keySet() + " vs " + noTourYet.keySet());
        // a lower bound at every spawn prunes a superset, so every job of the second run is in the first one
        for (final Map.Entry<Stamp, String> job : goodTourKnown.entrySet()) {
            assertEquals(noTourYet.get(job.getKey()), job.getValue(), "the subtree of the job with stamp " + job.getKey());
        }
    }

    /**
     * Every job of a one-worker run of {@link SharingTsp#search} from a shared bound starting at {@code firstBound}:
     * its stamp and the subtree it searches (the cities visited, the last one, its depth and path length).
     */
    private static Map<Stamp, String> subtreesByStamp(final TspInstance instance, final double[] costs, final int firstBound) throws Exception {
        final Map<Stamp, String> subtrees = new TreeMap<>();
        // the compute hook sees every spawned job on its worker before it runs (the root excepted): it records it and
        // lets it run as usual
        try (Scheduler scheduler = new Scheduler(NodeConfig.builder().workers(1).build(), "stamps", job -> {
            final SharingTspJobs.SearchJob search = (SharingTspJobs.SearchJob)job;
            synchronized (subtrees) {
                subtrees.put(Stamp.of(job), "visited " + Long.toBinaryString(search.visited) + ", at city " + search.current
                    + ", depth " + search.depth + ", length " + search.length);
            }
            return false;
        })) {
            scheduler.start();
            final SharingTsp tsp = new SharingTsp(instance, costs, SPAWN_DEPTH);
            final int answer = scheduler.run(() -> tsp.search(1L, 0, 1, 0, new BestTour(firstBound))).value();
            assertEquals(TspSequential.heldKarp(instance), answer, "from " + firstBound);
        }
        return subtrees;
    }
}
