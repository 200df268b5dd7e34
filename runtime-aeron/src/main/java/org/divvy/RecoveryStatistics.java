package org.divvy;

/**
 * One node's fault-tolerance counters (thesis Table 3.2): what recovery from crashed or departed nodes
 * did here. All zero in a run without failures.
 *
 * @param jobsRestarted       jobs given to thieves that died or left, put back to run here (restarted)
 * @param orphansKept         finished jobs of orphaned subtrees this node kept for reuse (its orphan table entries)
 * @param announcements       ORPHAN_TUPLES broadcasts this node sent (one per recovery that kept something)
 * @param pairsReceived       (holder, stamp) pairs received from other nodes' announcements and tables
 * @param resultRequests      restarted jobs this node asked an orphan holder for instead of computing them
 * @param heldResultsReturned orphan results this node held and sent to nodes that asked for them
 * @param copiedHere          restarted jobs whose result this node held itself, reused without a message
 * @param resultsHandedOver   kept results this node handed to a staying node when it left gracefully
 * @param resultsTakenOver    kept results departing nodes handed to this node
 * @param takeovers           runs whose root this node took over from a master that died or left
 * @param fingerprintMismatches restarted jobs whose stamp was held for another job (its fingerprint differed:
 *                            their parent spawned in a different order), computed instead of reused
 * @param copiesSent          result copies this node sent to its site's keeper on another site (jobs that ran long)
 * @param copiesKept          result copies this node received and kept as a keeper
 * @param copiesAdopted       kept copies this node made finished orphans of its own when their site died
 * @param copiesDropped       result copies not sent (the keeper's queue was full) or not kept (the keeper was full)
 */
public record RecoveryStatistics(long jobsRestarted, long orphansKept, long announcements, long pairsReceived,
    long resultRequests, long heldResultsReturned, long copiedHere, long resultsHandedOver, long resultsTakenOver,
    long takeovers, long fingerprintMismatches, long copiesSent, long copiesKept, long copiesAdopted, long copiesDropped) {

    /** No recovery happened. */
    public static final RecoveryStatistics NONE = new RecoveryStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Restarted jobs reused instead of recomputed: results asked for and results copied here. */
    public long reused() {
        return resultRequests + copiedHere;
    }

    /** These counters minus an earlier snapshot of the same node. */
    public RecoveryStatistics minus(final RecoveryStatistics earlier) {
        return new RecoveryStatistics(jobsRestarted - earlier.jobsRestarted, orphansKept - earlier.orphansKept,
            announcements - earlier.announcements, pairsReceived - earlier.pairsReceived,
            resultRequests - earlier.resultRequests, heldResultsReturned - earlier.heldResultsReturned,
            copiedHere - earlier.copiedHere, resultsHandedOver - earlier.resultsHandedOver,
            resultsTakenOver - earlier.resultsTakenOver, takeovers - earlier.takeovers,
            fingerprintMismatches - earlier.fingerprintMismatches, copiesSent - earlier.copiesSent,
            copiesKept - earlier.copiesKept, copiesAdopted - earlier.copiesAdopted, copiesDropped - earlier.copiesDropped);
    }

    /** Whether any counter is non-zero. */
    public boolean any() {
        return !equals(NONE);
    }

    @Override
    public String toString() {
        return String.format("recovery: jobs restarted %d; orphans kept %d, announced in %d broadcasts; pairs received %d;"
            + " reused %d (asked %d, held here %d); held results returned %d; handed over on leaving %d, taken over %d;"
            + " master takeovers %d; orphan fingerprint mismatches %d; result copies sent %d, kept %d, adopted %d, dropped %d",
            jobsRestarted, orphansKept, announcements, pairsReceived, reused(), resultRequests, copiedHere, heldResultsReturned,
            resultsHandedOver, resultsTakenOver, takeovers, fingerprintMismatches, copiesSent, copiesKept, copiesAdopted,
            copiesDropped);
    }
}
