package org.divvy.perf.faults;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code divvy run} printed, parsed: its verdict and time, the master, and the counters summed over the
 * nodes that printed them (node 0 and every child that survived; a SIGKILLed node prints nothing).
 *
 * @param passed           a {@code PASS:} line was printed (the answer was checked and right)
 * @param wallSeconds      the run's {@code wall time}: from submitting the root to its value
 * @param firstMasterSite  the site of the master the registry first chose
 * @param finalMasterSite  the site of the master that delivered the value
 * @param takeovers        master takeovers (a new master re-ran the root)
 * @param jobsSpawned      jobs spawned, all printing nodes
 * @param jobsStolen       successful remote steals (site and wide-area), all printing nodes
 * @param jobsRestarted    jobs re-queued because their thief died
 * @param orphansKept      finished orphans kept (the jobs in orphan tables, as their holders count them)
 * @param broadcasts       ORPHAN_TUPLES broadcasts (one per recovery per holder, combined)
 * @param pairsReceived    (holder, stamp) pairs received
 * @param resultRequests   RESULT_REQUESTs sent for restarted jobs held elsewhere
 * @param heldReturned     held orphan results returned to a requester (reused on another node)
 * @param copiedHere       held orphan results copied on the holder itself (reused there)
 * @param handedOver       finished results the nodes that left gracefully handed to a staying node (their own line)
 * @param takenOver        results staying nodes took over from a leaving node
 * @param copiesSent       result copies sent to keepers on other sites (jobs that ran at least resultCopyMinMs)
 * @param copiesAdopted    kept copies their keepers made finished orphans when the copies' site died
 */
record RunSample(boolean passed, double wallSeconds, String firstMasterSite, String finalMasterSite, long takeovers,
    long jobsSpawned, long jobsStolen, long jobsRestarted, long orphansKept, long broadcasts, long pairsReceived,
    long resultRequests, long heldReturned, long copiedHere, long handedOver, long takenOver, long copiesSent,
    long copiesAdopted) {

    private static final Pattern WALL = Pattern.compile("^wall time: ([0-9.]+) s");
    /** {@code divvy run: the registry gives the root to node 6 (pid 5658, site C, node id 1): ...} */
    static final Pattern EXPECTED_MASTER = Pattern.compile(
        "the registry gives the root to node (\\d+) \\(pid (\\d+), site (\\S+), node id (\\d+)\\)");
    private static final Pattern MASTER = Pattern.compile(
        "^master: node \\d+ \\((?:pid \\d+, )?site (\\S+),.*; takeovers: (\\d+)");
    private static final Pattern MASTER_NODE0 = Pattern.compile("^master: node 0 \\(this process.*; takeovers: (\\d+)");
    private static final Pattern JOBS = Pattern.compile("jobs since it (?:started|joined): spawned (\\d+), executed");
    private static final Pattern STEALS = Pattern.compile("remote steals: site (\\d+)/\\d+, wide-area (\\d+)/\\d+");
    private static final Pattern RECOVERY = Pattern.compile("recovery: jobs restarted (\\d+); orphans kept (\\d+), "
        + "announced in (\\d+) broadcasts; pairs received (\\d+); reused \\d+ \\(asked (\\d+), held here (\\d+)\\); "
        + "held results returned (\\d+); handed over on leaving \\d+, taken over (\\d+)");
    private static final Pattern COPIES = Pattern.compile("result copies sent (\\d+), kept \\d+, adopted (\\d+)");
    /** A node's exit hook after a graceful leave: {@code node id 2 left the running computation (SIGTERM): handed 18 ...}. */
    private static final Pattern HANDED = Pattern.compile("left the running computation \\([^)]*\\): handed (\\d+) ");

    /** Jobs reused instead of recomputed: copied on their holder, or returned by it to the node that asked. */
    long reused() {
        return copiedHere + heldReturned;
    }

    /** Parses the merged output lines of one run. */
    static RunSample parse(final List<String> lines) {
        boolean passed = false;
        double wall = Double.NaN;
        String firstMaster = "?";
        String finalMaster = "?";
        long takeovers = 0;
        final long[] sums = new long[11];
        long handedOver = 0;
        long copiesSent = 0;
        long copiesAdopted = 0;
        for (final String line : lines) {
            if (line.startsWith("PASS:")) {
                passed = true;
            }
            Matcher m = WALL.matcher(line);
            if (m.find()) {
                wall = Double.parseDouble(m.group(1));
            }
            m = EXPECTED_MASTER.matcher(line);
            if (m.find() && "?".equals(firstMaster)) {
                firstMaster = m.group(3);
            }
            m = MASTER.matcher(line);
            if (m.find()) {
                finalMaster = m.group(1);
                takeovers = Long.parseLong(m.group(2));
            }
            m = MASTER_NODE0.matcher(line);
            if (m.find()) {
                finalMaster = "R";
                takeovers = Long.parseLong(m.group(1));
            }
            m = JOBS.matcher(line);
            if (m.find()) {
                sums[0] += Long.parseLong(m.group(1));
            }
            m = STEALS.matcher(line);
            if (m.find()) {
                sums[1] += Long.parseLong(m.group(1)) + Long.parseLong(m.group(2));
            }
            m = RECOVERY.matcher(line);
            if (m.find()) {
                for (int g = 1; g <= 8; g++) {
                    sums[1 + g] += Long.parseLong(m.group(g));
                }
            }
            m = COPIES.matcher(line);
            if (m.find()) {
                copiesSent += Long.parseLong(m.group(1));
                copiesAdopted += Long.parseLong(m.group(2));
            }
            m = HANDED.matcher(line);
            if (m.find()) {
                handedOver += Long.parseLong(m.group(1));
            }
        }
        return new RunSample(passed, wall, firstMaster, finalMaster, takeovers, sums[0], sums[1], sums[2], sums[3],
            sums[4], sums[5], sums[6], sums[8], sums[7], handedOver, sums[9], copiesSent, copiesAdopted);
    }
}
