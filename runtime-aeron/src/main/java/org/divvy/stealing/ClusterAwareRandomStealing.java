package org.divvy.stealing;

import java.util.Random;

import org.divvy.membership.Members;

/**
 * CRS (thesis §2.3): when out of work, first (if none is outstanding) one asynchronous wide-area
 * request to a node drawn uniformly among all nodes of all other sites; then synchronous requests to
 * uniform nodes of the own site, one at a time. The wide-area request is never cancelled: its job,
 * however late, is queued. With a single site this is RS inside the site. In deep idle each slot holds its
 * victim for a while ({@link StealStrategy}).
 */
class ClusterAwareRandomStealing extends StealStrategy {
    ClusterAwareRandomStealing(final Random random, final long backoffMinNs, final long backoffMaxNs,
        final long deepBackoffMaxNs, final long requestTimeoutNs) {
        super(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
    }

    @Override
    int onIdle(final long nowNs, final Members peers, final StealSender sender) {
        int sent = 0;
        if (peers.otherSitesCount() > 0 && wideArea.ready(nowNs)) {
            final int held = heldVictim(wideArea, nowNs, peers);
            final int victim = held >= 0 ? held : drawn(wideArea, chooseRemote(peers, nowNs), nowNs);
            if (send(wideArea, victim, RequestKind.WIDE_AREA, true, nowNs, sender)) {
                sent++;
            }
        }
        if (peers.sameSiteCount() > 0 && sync.ready(nowNs)) {
            final int held = heldVictim(sync, nowNs, peers);
            final int victim = held >= 0 ? held : drawn(sync, peers.randomInSite(random), nowNs);
            if (send(sync, victim, RequestKind.SITE, false, nowNs, sender)) {
                sent++;
            }
        }
        return sent;
    }

    /** The wide-area victim: uniform over all nodes of all other sites (call only when there is one). */
    int chooseRemote(final Members peers, final long nowNs) {
        return peers.randomRemote(random);
    }
}
