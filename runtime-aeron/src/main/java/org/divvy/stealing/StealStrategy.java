package org.divvy.stealing;

import java.util.Random;

import org.divvy.DivvyException;
import org.divvy.StealPolicy;
import org.divvy.membership.Members;

/**
 * A steal policy as a pure object: which peers an out-of-work node asks, how many requests may be
 * outstanding, and how long it pauses after failures. No I/O and no clock of its own: the thief
 * calls {@link #onIdle} from the agent's duty cycle while the node has no work, passes replies to
 * {@link #onReply}, and tells it about lost victims and the time. Owned by one thread.
 *
 * <p>Two request slots: the synchronous one (RS: to any peer; CRS: inside the own site), which at most
 * one request occupies, and the wide-area one (CRS only: asynchronous, never cancelled, at most one
 * outstanding). Each slot has its own {@link StealBackoff}.
 *
 * <p><b>Held victims in deep idle.</b> While the node is awake every request goes to a victim the policy
 * draws afresh. In deep idle (nothing found for {@code deepIdleAfterMs}) each slot keeps its victim for a
 * while instead: every new victim is a new stream each way in the media drivers (a publication, and an
 * image at the peer that outlives the publication's close by Aeron's image liveness timeout), and 64 idle
 * nodes in a run that drew a victim for every request kept ~1,300 publications and ~5,000 images alive in
 * four drivers (perf/README.md, "64 replicas: idle nodes hold their victims"; holding pays only while the
 * node stays in deep idle, which a request waiting for a new stream no longer ends in a run). The first victim
 * drawn in deep idle is kept for one deep pause ({@code deepBackoffMaxNs}), each next one for twice as
 * long as the one before, up to {@code deepVictimHoldMaxNs}: a short lull still sees about as many
 * victims as before, and only a long one settles to a new victim every hold. A held victim's streams stay
 * in use, so they are not idle and are not closed: an idle cluster keeps about one stream pair per slot
 * and node, plus the ones a change of victim leaves closing. Leaving deep idle (work found), a run start
 * ({@link #wake}), the victim's loss and an unanswered request end the hold, and the next request draws
 * afresh. Why a hold that ends, not a victim kept for good: work that appears after a lull is found by
 * the thieves whose held victim has it (and then theirs) and by the others at their next draw, so it
 * reaches every node within a few holds; a victim kept for good would leave nodes whose held victims stay
 * idle without work for the rest of the run.
 */
public abstract class StealStrategy {
    /** First pause after a failed steal (1 ms): about one round trip plus the agents' wake-ups on a LAN. */
    static final long DEFAULT_BACKOFF_MIN_NS = 1_000_000L;
    /**
     * Longest pause (20 ms): a node that ran dry notices new work within 20 ms, and an idle node sends
     * about 60 requests a second per slot (jitter puts pauses in [10, 20] ms). Measured on the 2-core
     * development machine, two idle nodes in one JVM: the agent thread costs ~2% of a core without
     * stealing (heartbeats, idle strategy) and ~4.5% with it; 2 KB/s of requests.
     */
    static final long DEFAULT_BACKOFF_MAX_NS = 20_000_000L;
    /** A request unanswered for this long (1 s) counts as failed; its late reply is still honoured. */
    static final long DEFAULT_REQUEST_TIMEOUT_NS = 1_000_000_000L;

    final Random random;
    final long requestTimeoutNs;
    final Slot sync;
    final Slot wideArea;
    private long nextRequestId = 1;

    private boolean deepIdle;

    StealStrategy(final Random random, final long backoffMinNs, final long backoffMaxNs, final long deepBackoffMaxNs,
        final long requestTimeoutNs) {
        this.random = random;
        this.requestTimeoutNs = requestTimeoutNs;
        this.sync = new Slot(new StealBackoff(backoffMinNs, backoffMaxNs, deepBackoffMaxNs, random));
        this.wideArea = new Slot(new StealBackoff(backoffMinNs, backoffMaxNs, deepBackoffMaxNs, random));
    }

    /**
     * The strategy for {@code policy} with the default timings but the deep idle ones: the pause cap and the
     * longest time a victim is held ({@code deepVictimHoldMaxNs}, 0: a victim drawn afresh for every request).
     */
    public static StealStrategy of(final StealPolicy policy, final Random random, final long deepBackoffMaxNs,
        final long deepVictimHoldMaxNs) {
        return of(policy, random, DEFAULT_BACKOFF_MIN_NS, DEFAULT_BACKOFF_MAX_NS, deepBackoffMaxNs, DEFAULT_REQUEST_TIMEOUT_NS,
            deepVictimHoldMaxNs);
    }

    /** With every timing given, victims never held: for tests of the policies. */
    static StealStrategy of(final StealPolicy policy, final Random random, final long backoffMinNs, final long backoffMaxNs,
        final long deepBackoffMaxNs, final long requestTimeoutNs) {
        return of(policy, random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs, 0);
    }

    /** With every timing given: for tests of the policies. */
    static StealStrategy of(final StealPolicy policy, final Random random, final long backoffMinNs, final long backoffMaxNs,
        final long deepBackoffMaxNs, final long requestTimeoutNs, final long deepVictimHoldMaxNs) {
        final StealStrategy strategy = switch (policy) {
            case RS -> new RandomStealing(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
            case CRS -> new ClusterAwareRandomStealing(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
            case LCRS -> new LoadAwareClusterStealing(random, backoffMinNs, backoffMaxNs, deepBackoffMaxNs, requestTimeoutNs);
        };
        strategy.holdVictims(Math.min(deepBackoffMaxNs, deepVictimHoldMaxNs), deepVictimHoldMaxNs);
        return strategy;
    }

    private void holdVictims(final long firstHoldNs, final long maxHoldNs) {
        if (maxHoldNs < 0) {
            throw new DivvyException("deepVictimHoldMaxNs=" + maxHoldNs + ", must be >= 0");
        }
        sync.holdRange(firstHoldNs, maxHoldNs);
        wideArea.holdRange(firstHoldNs, maxHoldNs);
    }

    /**
     * The node entered or left deep idle at {@code nowNs}. Leaving resets both slots' backoff and lets
     * them ask at once: the node has something to do again, and a long deep-idle pause must not hold it.
     */
    final void deepIdle(final boolean deep, final long nowNs) {
        if (deep == deepIdle) {
            return;
        }
        deepIdle = deep;
        sync.backoff.deepIdle(deep);
        wideArea.backoff.deepIdle(deep);
        if (!deep) {
            sync.wake(nowNs);
            wideArea.wake(nowNs);
            sync.endHold();
            wideArea.endHold();
        }
    }

    /**
     * Work is about to appear (a run started) at {@code nowNs}: resets both slots' backoff and held victims
     * and lets them ask at once, whether or not the node is still in deep idle this cycle.
     */
    final void wake(final long nowNs) {
        sync.backoff.reset();
        wideArea.backoff.reset();
        sync.wake(nowNs);
        wideArea.wake(nowNs);
        sync.endHold();
        wideArea.endHold();
    }

    /**
     * The victim {@code slot} holds at {@code nowNs} (in deep idle, its hold not over, still alive), or -1: then the
     * policy draws one and passes it to {@link #drawn}.
     */
    final int heldVictim(final Slot slot, final long nowNs, final Members peers) {
        if (!deepIdle || slot.heldVictimId < 0) {
            return -1;
        }
        if (nowNs - slot.heldUntilNs >= 0 || !peers.isAlive(slot.heldVictimId)) {
            slot.heldVictimId = -1;
            return -1;
        }
        return slot.heldVictimId;
    }

    /** The policy drew {@code victimId} for {@code slot} at {@code nowNs}: in deep idle, the slot holds it. */
    final int drawn(final Slot slot, final int victimId, final long nowNs) {
        if (deepIdle) {
            slot.hold(victimId, nowNs);
        }
        return victimId;
    }

    final boolean isDeepIdle() {
        return deepIdle;
    }

    /**
     * The node is out of work at {@code nowNs}: sends the requests the policy allows now through
     * {@code sender}; returns how many were sent.
     */
    abstract int onIdle(long nowNs, Members peers, StealSender sender);

    /** A reply to {@code requestId} arrived; returns what the request was ({@link RequestKind#LATE} if none is outstanding). */
    final RequestKind onReply(final long requestId, final boolean gotJob, final long nowNs) {
        if (sync.isOutstanding(requestId)) {
            return sync.onReply(gotJob, nowNs);
        }
        if (wideArea.isOutstanding(requestId)) {
            final int victimId = wideArea.victimId;
            final long sentNs = wideArea.sentNs;
            final RequestKind kind = wideArea.onReply(gotJob, nowNs);
            onWideAreaReply(victimId, gotJob, sentNs, nowNs);
            return kind;
        }
        return RequestKind.LATE;
    }

    /** The wide-area request sent to {@code victimId} at {@code sentNs} was answered at {@code nowNs}: for policies that learn from it. */
    void onWideAreaReply(final int victimId, final boolean gotJob, final long sentNs, final long nowNs) {
    }

    /** {@code victimId} died, left or could not be reached: for policies that remember victims. */
    void onWideAreaVictimLost(final int victimId) {
    }

    /** {@code victimId} died, left or could not be reached: its outstanding requests failed. */
    final void onVictimLost(final int victimId, final long nowNs) {
        onWideAreaVictimLost(victimId);
        sync.endHoldOf(victimId);
        wideArea.endHoldOf(victimId);
        if (sync.outstanding && sync.victimId == victimId) {
            sync.onReply(false, nowNs);
        }
        if (wideArea.outstanding && wideArea.victimId == victimId) {
            wideArea.onReply(false, nowNs);
        }
    }

    /** Fails requests outstanding longer than the timeout; returns how many. */
    final int expire(final long nowNs) {
        int expired = 0;
        if (sync.outstanding && nowNs - sync.sentNs > requestTimeoutNs) {
            sync.endHoldOf(sync.victimId); // no answer in time: not a victim to keep asking
            sync.onReply(false, nowNs);
            expired++;
        }
        if (wideArea.outstanding && nowNs - wideArea.sentNs > requestTimeoutNs) {
            onWideAreaVictimLost(wideArea.victimId); // no answer in time: a policy that remembers it asks another next
            wideArea.endHoldOf(wideArea.victimId);
            wideArea.onReply(false, nowNs);
            expired++;
        }
        return expired;
    }

    final boolean hasSyncOutstanding() {
        return sync.outstanding;
    }

    final boolean hasWideAreaOutstanding() {
        return wideArea.outstanding;
    }

    /** Sends one request to {@code victimId} in {@code slot}; false if the sender could not take it. */
    final boolean send(final Slot slot, final int victimId, final RequestKind kind, final boolean wideAreaFlag,
        final long nowNs, final StealSender sender) {
        final long requestId = nextRequestId++;
        slot.start(requestId, victimId, kind, nowNs);
        if (!sender.send(victimId, requestId, wideAreaFlag)) {
            slot.onReply(false, nowNs); // not sent (its queue is full): a failed steal, paced like one
            return false;
        }
        return true;
    }

    /** One kind of outstanding request: at most one at a time; in deep idle, the victim it holds. */
    static final class Slot {
        final StealBackoff backoff;
        boolean outstanding;
        long requestId;
        int victimId;
        RequestKind kind;
        long sentNs;
        long notBeforeNs;
        boolean everSent;
        /** The held victim (deep idle only), or -1; held until {@code heldUntilNs}. */
        int heldVictimId = -1;
        long heldUntilNs;
        /** The last hold's length (0: none since the hold was reset); the next is twice as long, up to the max. */
        long holdNs;
        long firstHoldNs;
        long maxHoldNs;

        Slot(final StealBackoff backoff) {
            this.backoff = backoff;
        }

        void holdRange(final long firstNs, final long maxNs) {
            firstHoldNs = firstNs;
            maxHoldNs = maxNs;
        }

        /** Holds {@code victim} from {@code nowNs}, for twice the last hold (the first: {@code firstHoldNs}). */
        void hold(final int victim, final long nowNs) {
            if (maxHoldNs == 0) {
                return;
            }
            holdNs = holdNs == 0 ? firstHoldNs : Math.min(maxHoldNs, holdNs * 2);
            heldVictimId = victim;
            heldUntilNs = nowNs + holdNs;
        }

        /** No victim held, and the next hold is the first again. */
        void endHold() {
            heldVictimId = -1;
            holdNs = 0;
        }

        /** Stops holding {@code victim} (the hold length goes on growing: the node is still in deep idle). */
        void endHoldOf(final int victim) {
            if (heldVictimId == victim) {
                heldVictimId = -1;
            }
        }

        boolean ready(final long nowNs) {
            return !outstanding && (!everSent || nowNs - notBeforeNs >= 0);
        }

        /** The next request may go at {@code nowNs} already (if none is outstanding). */
        void wake(final long nowNs) {
            if (nowNs - notBeforeNs < 0) {
                notBeforeNs = nowNs;
            }
        }

        boolean isOutstanding(final long id) {
            return outstanding && requestId == id;
        }

        void start(final long id, final int victim, final RequestKind requestKind, final long nowNs) {
            outstanding = true;
            everSent = true;
            requestId = id;
            victimId = victim;
            kind = requestKind;
            sentNs = nowNs;
        }

        RequestKind onReply(final boolean gotJob, final long nowNs) {
            outstanding = false;
            if (gotJob) {
                backoff.reset();
                notBeforeNs = nowNs;
            } else {
                notBeforeNs = nowNs + backoff.nextNs();
            }
            return kind;
        }
    }
}
