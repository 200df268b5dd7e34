package org.divvy.examples.tsp;

import org.divvy.IntSpawn;
import org.divvy.Root;
import org.divvy.annotations.Spawnable;

/**
 * The travelling salesman with Divvy, divide and share (Satin++'s TSP): the same branch and bound as {@link Tsp},
 * but the best tour length is a shared object ({@link BestTour}) instead of an argument. A job that completes a
 * shorter tour offers it to every replica at once, so a sibling, or a job on another node, prunes with it as soon
 * as its node applies the write (at its next spawn, sync or poll: the sequential part polls every
 * {@link #POLL_EVERY} search nodes), instead of only its own subtree's descendants.
 *
 * <p>The distance table and the bound's costs are passed normally (fields of the receiver, shipped with every
 * stolen job, as {@link Tsp} does): they are read-only and small (at most 63 x 63 ints and doubles, 48 KB), a
 * shared object would be fetched by every thief before its first job all the same, and sharing only the bound
 * keeps the comparison with {@link Tsp} about the one thing that differs.
 */
public class SharingTsp implements SharingTspSpawner {
    /** The sequential part applies other nodes' offers every this many search nodes (a replica read costs ~7 ns). */
    static final int POLL_EVERY = 256;

    TspInstance instance;
    double[] costs;
    int spawnDepth;

    /** For the generated receiver codec. */
    public SharingTsp() {
    }

    public SharingTsp(final TspInstance instance, final double[] costs, final int spawnDepth) {
        this.instance = instance;
        this.costs = costs;
        this.spawnDepth = spawnDepth;
    }

    /**
     * The optimal tour length, as a run's root, given a known tour's length or {@link TspSequential#NO_TOUR} as the
     * shared bound's first value; the penalties are computed on the caller.
     */
    public static Root<Integer> solve(final TspInstance instance, final int spawnDepth, final int firstBound) {
        final SharingTsp tsp = new SharingTsp(instance,
            TspSequential.transformedCosts(instance, TspSequential.penalties(instance)), spawnDepth);
        return Root.of(() -> tsp.spawnSearch(1L, 0, 1, 0, new BestTourShared(firstBound)));
    }

    /**
     * The shortest tour through the path ending at {@code current} that visits {@code visited}, or the shortest
     * known from {@code best} when none is shorter. Every value returned is the length of a real tour (or
     * {@link TspSequential#NO_TOUR}), so the root's minimum is the optimum whatever the replicas held.
     */
    @Spawnable
    public int search(final long visited, final int current, final int depth, final int length, final BestTour best) {
        final TspSequential.TspSearch state = new TspSequential.TspSearch(instance, costs);
        if (depth >= spawnDepth || depth >= instance.size() - 1) {
            return new LeafSearch(state, best).search(visited, current, depth, length, best.length());
        }
        final int count = state.orderedCandidates(visited, current, depth);
        final IntSpawn[] children = new IntSpawn[count];
        // every bound this job prunes with, it returns: a replica's value can go up again (a fetched state replaces
        // a lower local one, README "What best effort means precisely"), so the value read later may not be it
        int pruningBound = best.length();
        // spawned farthest first, so that this worker, which runs its own children newest first, tries the nearest
        // city first as the sequential search does: it finds short tours early, and the later siblings are tested
        // against them (at att48 without a first tour, 150 jobs in 0.17 s instead of 578 in 2.1 s on one worker).
        // Passing the bound down gains nothing from this: siblings spawned together all get the same bound.
        for (int k = count - 1; k >= 0; k--) {
            final int city = state.candidateAt(depth, k);
            final int extended = length + instance.distance(current, city);
            final long visitedThen = visited | 1L << city;
            // the freshest bound at each spawn: a spawn is a safe point, so other nodes' offers are applied here
            pruningBound = Math.min(pruningBound, best.length());
            if (extended + state.restBound(visitedThen, city) <= pruningBound - 1 + 1e-6) {
                children[k] = spawnSearch(visitedThen, city, depth + 1, extended, best);
            } else {
                // the pruned child keeps its index: which children are pruned depends on the shared bound, which
                // differs from run to run, and a job's stamp is its child index; without the skip, a master that
                // takes over (its replica's bound lower than the dead master's was) spawns fewer children, the
                // nth of them gets the stamp of the old run's nth, another city, and reuses that city's orphan
                // result (a 3-node run with the master killed answered 6322 for 6271 so)
                skipSpawn();
            }
        }
        sync();
        int shortestTour = Math.min(pruningBound, best.length());
        for (final IntSpawn child : children) {
            if (child != null) {
                shortestTour = Math.min(shortestTour, child.get());
            }
        }
        return shortestTour;
    }

    /**
     * The sequential part: {@link TspSequential.TspSearch#search} with the shared bound read at every search node
     * and each shorter tour offered to it as soon as it is complete.
     */
    private final class LeafSearch {
        private final TspSequential.TspSearch state;
        private final BestTour best;
        private final int n = instance.size();
        private final int[] distances = instance.distances();
        private int untilPoll = POLL_EVERY;

        LeafSearch(final TspSequential.TspSearch state, final BestTour best) {
            this.state = state;
            this.best = best;
        }

        int search(final long visited, final int current, final int depth, final int length, final int bound) {
            if (depth == n) {
                final int tour = length + distances[current * n];
                if (tour < bound) {
                    best.offer(tour);
                    return tour;
                }
                return bound;
            }
            if (--untilPoll == 0) {
                untilPoll = POLL_EVERY;
                pollSharedObjects(); // long sequential searches neither spawn nor sync: apply others' offers here
            }
            int bestNow = Math.min(bound, best.length());
            final int count = state.orderedCandidates(visited, current, depth);
            for (int k = 0; k < count; k++) {
                final int city = state.candidateAt(depth, k);
                final int extended = length + distances[current * n + city];
                final long visitedThen = visited | 1L << city;
                bestNow = Math.min(bestNow, best.length()); // kept: what it prunes with, it returns (see search)
                if (extended + state.restBound(visitedThen, city) > bestNow - 1 + 1e-6) {
                    continue;
                }
                bestNow = Math.min(bestNow, search(visitedThen, city, depth + 1, extended, bestNow));
            }
            return bestNow;
        }
    }
}
