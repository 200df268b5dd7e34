package org.divvy.perf.sharing;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;
import org.divvy.examples.simulated.SimulatedLeaf;

/**
 * SIMULATED busy nodes for the write-latency measurement: a binary tree whose leaves park {@code leafUs}, so each
 * worker reaches a safe point (spawn, sync, a job's end) at least once per leaf; every job carries the probe, so
 * every node that runs one holds a replica. A job stops dividing once the probe says stop (a write from the writer:
 * the divide-and-share way to end a search).
 */
public class BusyJobs implements BusyJobsSpawner {
    int leafUs;

    public BusyJobs() {
    }

    public BusyJobs(final int leafUs) {
        this.leafUs = leafUs;
    }

    /** Leaves run, at most {@code 2^depth}. */
    @Spawnable
    public long work(final int depth, final WriteProbe probe) {
        if (probe.isStopped()) {
            return 0;
        }
        if (depth == 0) {
            SimulatedLeaf.park(leafUs);
            return 1;
        }
        final LongSpawn left = spawnWork(depth - 1, probe);
        final LongSpawn right = spawnWork(depth - 1, probe);
        sync();
        return left.get() + right.get();
    }
}
