package org.divvy.stealing;

import java.util.Random;

import org.divvy.membership.Members;

/**
 * RS (thesis §2.3): the victim is uniform over every other alive member, whatever its site, and one
 * synchronous request is outstanding at a time. A request to another site is flagged wide-area only
 * for the statistics. In deep idle the victim is held for a while ({@link StealStrategy}).
 */
final class RandomStealing extends StealStrategy {
    RandomStealing(final Random random, final long backoffMinNs, final long backoffMaxNs, final long deepBackoffMaxNs,
        final long requestTimeoutNs) {
        super(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
    }

    @Override
    int onIdle(final long nowNs, final Members peers, final StealSender sender) {
        if (peers.othersCount() == 0 || !sync.ready(nowNs)) {
            return 0;
        }
        final int held = heldVictim(sync, nowNs, peers);
        final int victim = held >= 0 ? held : drawn(sync, peers.randomOther(random), nowNs);
        final boolean remote = !peers.inOwnSite(victim);
        return send(sync, victim, remote ? RequestKind.WIDE_AREA : RequestKind.SITE, remote, nowNs, sender) ? 1 : 0;
    }
}
