package org.divvy.stealing;

import java.util.Arrays;
import java.util.Random;

import org.divvy.membership.Members;

/**
 * LCRS, CRS with wide-area victims chosen by what their last replies said (load-aware victim choice,
 * {@code reference/related-theses.md} R-B3/R-B4, from GRID-GUM2's preference for loaded peers): everything
 * else is {@link ClusterAwareRandomStealing}. The remote node whose last reply carried a job is asked again
 * first: it had queued work one round trip ago, and a deque that gave its oldest job usually holds more.
 * Otherwise the victim is uniform over the remote nodes not known to be empty, a node being known empty for
 * two of its measured round trips after it answered "none" (by then it has likely stolen work inside its own
 * site). With nothing known it is CRS's uniform choice. Where this pays: at the start, when a whole site is
 * still empty and uniform CRS sends about half its requests there, and at the end, when few deques hold work.
 * The victim side of LCRS ({@link Victim#LCRS_WIDE_AREA_MIN_QUEUED}) keeps a node's last queued job in its site.
 * Agent thread only, no allocation per request (the per-member arrays grow with the largest member id).
 */
final class LoadAwareClusterStealing extends ClusterAwareRandomStealing {
    /** A "none" is trusted for this many of the victim's round trips. */
    private static final int EMPTY_FOR_ROUND_TRIPS = 2;

    /** Per member id: when its last wide-area reply came (0 = never), whether it carried a job, and how long it took. */
    private long[] lastReplyNs = new long[16];
    private boolean[] lastReplyHadJob = new boolean[16];
    private long[] lastRoundTripNs = new long[16];
    /** The remote node whose last reply carried a job, or -1. */
    private int lastGiver = -1;

    LoadAwareClusterStealing(final Random random, final long backoffMinNs, final long backoffMaxNs, final long deepBackoffMaxNs,
        final long requestTimeoutNs) {
        super(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
    }

    @Override
    int chooseRemote(final Members peers, final long nowNs) {
        if (lastGiver >= 0 && peers.isAlive(lastGiver) && !peers.inOwnSite(lastGiver)) {
            return lastGiver;
        }
        final int remote = peers.otherSitesCount();
        int candidates = 0;
        for (int i = 0; i < remote; i++) {
            if (!knownEmpty(peers.remoteAt(i), nowNs)) {
                candidates++;
            }
        }
        if (candidates == 0) {
            return peers.randomRemote(random);
        }
        int pick = random.nextInt(candidates);
        for (int i = 0; i < remote; i++) {
            final int id = peers.remoteAt(i);
            if (!knownEmpty(id, nowNs) && pick-- == 0) {
                return id;
            }
        }
        throw new IllegalStateException("unreachable: " + candidates + " candidates among " + remote);
    }

    @Override
    void onWideAreaReply(final int victimId, final boolean gotJob, final long sentNs, final long nowNs) {
        if (victimId >= lastReplyNs.length) {
            final int size = Math.max(victimId + 1, lastReplyNs.length * 2);
            lastReplyNs = Arrays.copyOf(lastReplyNs, size);
            lastReplyHadJob = Arrays.copyOf(lastReplyHadJob, size);
            lastRoundTripNs = Arrays.copyOf(lastRoundTripNs, size);
        }
        lastReplyNs[victimId] = nowNs;
        lastReplyHadJob[victimId] = gotJob;
        lastRoundTripNs[victimId] = nowNs - sentNs;
        if (gotJob) {
            lastGiver = victimId;
        } else if (lastGiver == victimId) {
            lastGiver = -1;
        }
    }

    @Override
    void onWideAreaVictimLost(final int victimId) {
        if (lastGiver == victimId) {
            lastGiver = -1;
        }
        if (victimId < lastReplyNs.length) {
            lastReplyNs[victimId] = 0;
        }
    }

    private boolean knownEmpty(final int id, final long nowNs) {
        return id < lastReplyNs.length && lastReplyNs[id] != 0 && !lastReplyHadJob[id] &&
            nowNs - lastReplyNs[id] < EMPTY_FOR_ROUND_TRIPS * lastRoundTripNs[id];
    }
}
