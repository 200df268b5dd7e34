package org.divvy.examples.tsp;

import java.util.Arrays;

/**
 * The travelling salesman, sequentially, by depth-first branch and bound: tours start at city 0 and grow
 * one city at a time, nearest (in the bound's costs) first; a partial tour is pruned when its lower bound
 * cannot beat the best tour known. The first best tour is a heuristic one ({@link #heuristicTour}: nearest
 * neighbour from every city, improved by 2-opt), so the search mostly proves optimality.
 *
 * <p>The lower bound of a path from 0 to {@code current} through the visited cities is its length plus a
 * bound on the path that must still run from {@code current} through every unvisited city back to 0: a
 * minimum spanning tree of the unvisited cities plus the cheapest edge from each end into them. It is taken
 * in Held-Karp's transformed costs {@code d(i,j) + pi_i + pi_j}, with the penalties {@code pi} found once at
 * the root by subgradient optimisation of the 1-tree bound ({@link #penalties}); any tour's length changes
 * by the same {@code 2 * sum(pi)} under them, so the bound stays valid and becomes much tighter (the
 * spanning tree is pushed towards a path).
 *
 * <p>Also the reference: {@link #heldKarp}, the exact dynamic programme over subsets, for small instances.
 */
public final class TspSequential {
    /** The largest instance {@link #heldKarp} accepts: its table has {@code 2^(n-1) * (n-1)} ints (8 MiB at 18). */
    public static final int HELD_KARP_MAX_CITIES = 18;

    private TspSequential() {
    }

    /** A first bound longer than any tour: an int tour length of up to 63 legs stays below it. */
    public static final int NO_TOUR = Integer.MAX_VALUE / 2;

    /** The optimal tour length, from the heuristic tour's length as the first bound. */
    public static int solve(final TspInstance instance) {
        return solve(instance, instance.tourLength(heuristicTour(instance)));
    }

    /** The optimal tour length, given the length of a known tour or {@link #NO_TOUR}. */
    public static int solve(final TspInstance instance, final int firstBound) {
        final double[] costs = transformedCosts(instance, penalties(instance));
        return new TspSearch(instance, costs).search(1L, 0, 1, 0, firstBound);
    }

    /**
     * The search state of one job: the instance, the bound's costs and scratch arrays reused by every node of
     * the search (nothing is allocated per node).
     */
    public static final class TspSearch {
        private final int n;
        private final int[] distances;
        private final double[] costs;
        /** Per depth, the candidate next cities in order of cost from the current one. */
        private final int[][] candidates;
        private final double[] keys;
        private final int[] unvisited;

        public TspSearch(final TspInstance instance, final double[] costs) {
            this.n = instance.size();
            this.distances = instance.distances();
            this.costs = costs;
            this.candidates = new int[n + 1][n];
            this.keys = new double[n];
            this.unvisited = new int[n];
        }

        /**
         * The best tour length below the path ending at {@code current} that visits {@code visited}
         * ({@code depth} cities, length {@code length}), or {@code best} when nothing shorter is there.
         */
        public int search(final long visited, final int current, final int depth, final int length, final int best) {
            if (depth == n) {
                return Math.min(best, length + distances[current * n]);
            }
            int bestNow = best;
            final int count = orderedCandidates(visited, current, depth);
            final int[] next = candidates[depth];
            for (int k = 0; k < count; k++) {
                final int city = next[k];
                final int extended = length + distances[current * n + city];
                final long visitedThen = visited | 1L << city;
                if (extended + restBound(visitedThen, city) > bestNow - 1 + 1e-6) {
                    continue;
                }
                bestNow = search(visitedThen, city, depth + 1, extended, bestNow);
            }
            return bestNow;
        }

        /** Fills {@code candidates[depth]} with the unvisited cities by cost from {@code current}; returns how many. */
        public int orderedCandidates(final long visited, final int current, final int depth) {
            final int[] next = candidates[depth];
            int count = 0;
            for (int city = 1; city < n; city++) {
                if ((visited & 1L << city) == 0) {
                    // insertion sort: at most 62 cities, and mostly short lists deep in the tree
                    final double cost = costs[current * n + city];
                    int i = count++;
                    while (i > 0 && costs[current * n + next[i - 1]] > cost) {
                        next[i] = next[i - 1];
                        i--;
                    }
                    next[i] = city;
                }
            }
            return count;
        }

        /** The {@code k}th candidate filled by {@link #orderedCandidates} for {@code depth}. */
        public int candidateAt(final int depth, final int k) {
            return candidates[depth][k];
        }

        /**
         * A lower bound on the true length of a path from {@code current} through every city outside
         * {@code visited} back to city 0 (see the class comment).
         */
        public double restBound(final long visited, final int current) {
            int m = 0;
            for (int city = 1; city < n; city++) {
                if ((visited & 1L << city) == 0) {
                    unvisited[m++] = city;
                }
            }
            if (m == 0) {
                return distances[current * n];
            }
            double penaltyCorrection = costs[current * n + current] + costs[0]; // pi_current + pi_0, kept on the diagonal
            double tree = 0;
            // Prim's algorithm on the unvisited cities, O(m^2)
            for (int i = 0; i < m; i++) {
                keys[i] = Double.MAX_VALUE;
            }
            int last = unvisited[0];
            penaltyCorrection += 2 * costs[last * n + last];
            for (int added = 1; added < m; added++) {
                int nearest = -1;
                double nearestKey = Double.MAX_VALUE;
                for (int i = added; i < m; i++) {
                    final double key = Math.min(keys[i], costs[last * n + unvisited[i]]);
                    keys[i] = key;
                    if (key < nearestKey) {
                        nearestKey = key;
                        nearest = i;
                    }
                }
                tree += nearestKey;
                last = unvisited[nearest];
                penaltyCorrection += 2 * costs[last * n + last];
                unvisited[nearest] = unvisited[added];
                keys[nearest] = keys[added];
                unvisited[added] = last;
            }
            double fromCurrent = Double.MAX_VALUE;
            double fromStart = Double.MAX_VALUE;
            for (int i = 0; i < m; i++) {
                fromCurrent = Math.min(fromCurrent, costs[current * n + unvisited[i]]);
                fromStart = Math.min(fromStart, costs[unvisited[i]]);
            }
            return tree + fromCurrent + fromStart - penaltyCorrection;
        }
    }

    /**
     * The transformed costs {@code d(i,j) + pi_i + pi_j} as a row-major matrix; its diagonal holds {@code pi_i}
     * itself, which the bound needs to undo the transformation.
     */
    public static double[] transformedCosts(final TspInstance instance, final double[] penalties) {
        final int n = instance.size();
        final double[] costs = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                costs[i * n + j] = i == j ? penalties[i] : instance.distance(i, j) + penalties[i] + penalties[j];
            }
        }
        return costs;
    }

    /**
     * Held-Karp penalties: subgradient ascent on the 1-tree bound (a spanning tree of cities 1..n-1 plus the two
     * cheapest edges at city 0), raising the penalty of cities of degree above 2 and lowering those below.
     * Returns the penalties of the best bound seen; deterministic.
     */
    public static double[] penalties(final TspInstance instance) {
        final int n = instance.size();
        final double[] pi = new double[n];
        final double[] bestPi = new double[n];
        final int[] degree = new int[n];
        final int upper = instance.tourLength(heuristicTour(instance));
        double bestBound = Double.NEGATIVE_INFINITY;
        double lambda = 2.0;
        int sinceImproved = 0;
        for (int iteration = 0; iteration < 50 * n && lambda > 1e-6; iteration++) {
            final double bound = oneTree(instance, pi, degree);
            if (bound > bestBound + 1e-9) {
                bestBound = bound;
                System.arraycopy(pi, 0, bestPi, 0, n);
                sinceImproved = 0;
            } else if (++sinceImproved >= n / 2 + 5) {
                lambda /= 2;
                sinceImproved = 0;
            }
            int squares = 0;
            for (int i = 0; i < n; i++) {
                squares += (degree[i] - 2) * (degree[i] - 2);
            }
            if (squares == 0) {
                break; // the 1-tree is a tour: the bound is the optimum
            }
            final double step = lambda * (upper - bound) / squares;
            for (int i = 0; i < n; i++) {
                pi[i] += step * (degree[i] - 2);
            }
        }
        return bestPi;
    }

    /** The 1-tree bound under penalties {@code pi} (tour-length units); fills each city's degree in the tree. */
    static double oneTree(final TspInstance instance, final double[] pi, final int[] degree) {
        final int n = instance.size();
        Arrays.fill(degree, 0);
        final double[] key = new double[n];
        final int[] parent = new int[n];
        final boolean[] inTree = new boolean[n];
        Arrays.fill(key, Double.MAX_VALUE);
        key[1] = 0;
        parent[1] = -1;
        double total = 0;
        for (int added = 0; added < n - 1; added++) {
            int next = -1;
            for (int v = 1; v < n; v++) {
                if (!inTree[v] && (next < 0 || key[v] < key[next])) {
                    next = v;
                }
            }
            inTree[next] = true;
            total += key[next];
            if (parent[next] >= 0) {
                degree[next]++;
                degree[parent[next]]++;
            }
            for (int v = 1; v < n; v++) {
                final double cost = instance.distance(next, v) + pi[next] + pi[v];
                if (!inTree[v] && cost < key[v]) {
                    key[v] = cost;
                    parent[v] = next;
                }
            }
        }
        double first = Double.MAX_VALUE;
        double second = Double.MAX_VALUE;
        int firstCity = -1;
        int secondCity = -1;
        for (int v = 1; v < n; v++) {
            final double cost = instance.distance(0, v) + pi[0] + pi[v];
            if (cost < first) {
                second = first;
                secondCity = firstCity;
                first = cost;
                firstCity = v;
            } else if (cost < second) {
                second = cost;
                secondCity = v;
            }
        }
        degree[0] = 2;
        degree[firstCity]++;
        degree[secondCity]++;
        double penaltySum = 0;
        for (final double p : pi) {
            penaltySum += p;
        }
        return total + first + second - 2 * penaltySum;
    }

    /** The best of the nearest-neighbour tours from every city, each improved by 2-opt; a first upper bound. */
    public static int[] heuristicTour(final TspInstance instance) {
        final int n = instance.size();
        int[] best = null;
        int bestLength = Integer.MAX_VALUE;
        for (int start = 0; start < n; start++) {
            final int[] tour = nearestNeighbour(instance, start);
            twoOpt(instance, tour);
            final int length = instance.tourLength(tour);
            if (length < bestLength) {
                bestLength = length;
                best = tour;
            }
        }
        return best;
    }

    private static int[] nearestNeighbour(final TspInstance instance, final int start) {
        final int n = instance.size();
        final int[] tour = new int[n];
        final boolean[] used = new boolean[n];
        tour[0] = start;
        used[start] = true;
        for (int i = 1; i < n; i++) {
            int next = -1;
            for (int city = 0; city < n; city++) {
                if (!used[city] && (next < 0 || instance.distance(tour[i - 1], city) < instance.distance(tour[i - 1], next))) {
                    next = city;
                }
            }
            tour[i] = next;
            used[next] = true;
        }
        return tour;
    }

    /** Reverses segments while that shortens the tour. */
    private static void twoOpt(final TspInstance instance, final int[] tour) {
        final int n = tour.length;
        boolean improved = true;
        while (improved) {
            improved = false;
            for (int i = 0; i < n - 1; i++) {
                for (int j = i + 2; j < n; j++) {
                    final int a = tour[i];
                    final int b = tour[i + 1];
                    final int c = tour[j];
                    final int d = tour[(j + 1) % n];
                    if (a == d) {
                        continue;
                    }
                    final int delta = instance.distance(a, c) + instance.distance(b, d)
                        - instance.distance(a, b) - instance.distance(c, d);
                    if (delta < 0) {
                        for (int lo = i + 1, hi = j; lo < hi; lo++, hi--) {
                            final int t = tour[lo];
                            tour[lo] = tour[hi];
                            tour[hi] = t;
                        }
                        improved = true;
                    }
                }
            }
        }
    }

    /**
     * The optimal tour length by Held and Karp's dynamic programme: the shortest path from city 0 through each
     * subset of the others ending at each city, O(2^n * n^2) time. Instances up to {@link #HELD_KARP_MAX_CITIES}.
     */
    public static int heldKarp(final TspInstance instance) {
        final int n = instance.size();
        if (n > HELD_KARP_MAX_CITIES) {
            throw new IllegalArgumentException("Held-Karp takes at most " + HELD_KARP_MAX_CITIES + " cities, "
                + instance.name() + " has " + n);
        }
        final int others = n - 1; // city k of the subset is city k + 1
        final int subsets = 1 << others;
        final int[] shortest = new int[subsets * others];
        Arrays.fill(shortest, Integer.MAX_VALUE);
        for (int k = 0; k < others; k++) {
            shortest[(1 << k) * others + k] = instance.distance(0, k + 1);
        }
        for (int subset = 1; subset < subsets; subset++) {
            for (int last = 0; last < others; last++) {
                final int here = shortest[subset * others + last];
                if ((subset & 1 << last) == 0 || here == Integer.MAX_VALUE) {
                    continue;
                }
                for (int next = 0; next < others; next++) {
                    if ((subset & 1 << next) != 0) {
                        continue;
                    }
                    final int index = (subset | 1 << next) * others + next;
                    final int length = here + instance.distance(last + 1, next + 1);
                    if (length < shortest[index]) {
                        shortest[index] = length;
                    }
                }
            }
        }
        int best = Integer.MAX_VALUE;
        for (int last = 0; last < others; last++) {
            best = Math.min(best, shortest[(subsets - 1) * others + last] + instance.distance(last + 1, 0));
        }
        return best;
    }
}
