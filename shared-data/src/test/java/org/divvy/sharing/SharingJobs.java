package org.divvy.sharing;

import java.util.concurrent.locks.LockSupport;

import org.divvy.LongSpawn;
import org.divvy.annotations.Guard;
import org.divvy.annotations.Spawnable;

/** The small programs of the shared-data tests: a search that lowers a shared bound, rounds over a guarded shared array. */
public class SharingJobs implements SharingJobsSpawner {
    /** Microseconds each leaf works (parks), so that peers steal. */
    int leafMicros;

    public SharingJobs() {
    }

    public SharingJobs(final int leafMicros) {
        this.leafMicros = leafMicros;
    }

    /** A tree of {@code 2^depth} leaves; leaf {@code i} offers {@code 1000 + ((i * 7919) % 1000)} to the bound; returns the leaves. */
    @Spawnable
    public long explore(final int depth, final int index, final Best best) {
        if (depth == 0) {
            LockSupport.parkNanos(leafMicros * 1000L);
            best.offer(1000 + (int)(((long)index * 7919) % 1000));
            return 1;
        }
        final LongSpawn left = spawnExplore(depth - 1, 2 * index, best);
        final LongSpawn right = spawnExplore(depth - 1, 2 * index + 1, best);
        sync();
        return left.get() + right.get();
    }

    /** The sum of the grid's cells in [from, to), which this round's version must hold (the guard says so). */
    @Spawnable
    public long sumAt(final int version, final int from, final int to, final Grid grid) {
        if (to - from <= grid.size() / 32 + 1) {
            LockSupport.parkNanos(leafMicros * 1000L);
            if (grid.version() != version) {
                return Long.MIN_VALUE / 4; // a stale replica: the sum comes out wrong, and the test says so
            }
            return grid.sum(from, to);
        }
        final int middle = (from + to) >>> 1;
        final LongSpawn left = spawnSumAt(version, from, middle, grid);
        final LongSpawn right = spawnSumAt(version, middle, to, grid);
        sync();
        return left.get() + right.get();
    }

    @Guard("sumAt")
    boolean gridIsCurrent(final int version, final int from, final int to, final Grid grid) {
        return grid.version() == version;
    }

    /** {@code rounds} rounds: advance the grid (one write), then sum it in parallel; returns the sum of the rounds' sums. */
    public long rounds(final Grid grid, final int rounds) {
        long total = 0;
        for (int round = 1; round <= rounds; round++) {
            grid.advance(round);
            final LongSpawn sum = spawnSumAt(round, 0, grid.size(), grid);
            sync();
            total += sum.get();
        }
        return total;
    }
}
