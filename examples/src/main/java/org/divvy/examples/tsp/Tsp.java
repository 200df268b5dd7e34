package org.divvy.examples.tsp;

import org.divvy.IntSpawn;
import org.divvy.Root;
import org.divvy.annotations.Spawnable;

/**
 * The travelling salesman with Divvy, pure divide and conquer: {@link TspSequential.TspSearch#search} with one
 * spawn per next city on the first {@code spawnDepth} levels of the tree. The best tour length known travels
 * down the tree as an argument (Satin's TSP without shared objects): a job prunes with the bound its parent
 * had when it spawned it, and the parent returns the shortest of its children's answers. Siblings never see
 * each other's tours; the heuristic first tour (usually optimal or close on these sizes) keeps the
 * difference to a shared bound small.
 */
public class Tsp implements TspSpawner {
    TspInstance instance;
    /** Held-Karp transformed costs ({@link TspSequential#transformedCosts}), computed once at the root. */
    double[] costs;
    /** Cities from this depth on are placed sequentially. */
    int spawnDepth;

    /** For the generated receiver codec. */
    public Tsp() {
    }

    public Tsp(final TspInstance instance, final double[] costs, final int spawnDepth) {
        this.instance = instance;
        this.costs = costs;
        this.spawnDepth = spawnDepth;
    }

    /** The optimal tour length, as a run's root, from the heuristic tour's length as the first bound. */
    public static Root<Integer> solve(final TspInstance instance, final int spawnDepth) {
        return solve(instance, spawnDepth, instance.tourLength(TspSequential.heuristicTour(instance)));
    }

    /**
     * The optimal tour length, as a run's root, given a known tour's length or {@link TspSequential#NO_TOUR};
     * the penalties are computed on the caller.
     */
    public static Root<Integer> solve(final TspInstance instance, final int spawnDepth, final int firstBound) {
        final Tsp tsp = new Tsp(instance, TspSequential.transformedCosts(instance, TspSequential.penalties(instance)),
            spawnDepth);
        return Root.of(() -> tsp.spawnSearch(1L, 0, 1, 0, firstBound));
    }

    /**
     * The shortest tour through the path ending at {@code current} that visits {@code visited}, or {@code best}
     * when none is shorter.
     */
    @Spawnable
    public int search(final long visited, final int current, final int depth, final int length, final int best) {
        final TspSequential.TspSearch state = new TspSequential.TspSearch(instance, costs);
        if (depth >= spawnDepth || depth >= instance.size() - 1) {
            return state.search(visited, current, depth, length, best);
        }
        final int count = state.orderedCandidates(visited, current, depth);
        final IntSpawn[] children = new IntSpawn[count];
        for (int k = 0; k < count; k++) {
            final int city = state.candidateAt(depth, k);
            final int extended = length + instance.distance(current, city);
            final long visitedThen = visited | 1L << city;
            if (extended + state.restBound(visitedThen, city) <= best - 1 + 1e-6) {
                children[k] = spawnSearch(visitedThen, city, depth + 1, extended, best);
            }
        }
        sync();
        int shortestTour = best;
        for (final IntSpawn child : children) {
            if (child != null) {
                shortestTour = Math.min(shortestTour, child.get());
            }
        }
        return shortestTour;
    }
}
