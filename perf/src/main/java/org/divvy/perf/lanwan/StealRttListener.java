package org.divvy.perf.lanwan;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.divvy.agent.NetworkProxy;
import org.divvy.agent.RemoteWorkListener;
import org.divvy.membership.Member;

/**
 * Both ends of the steal round-trip measurement, driven on the network agent thread: a victim answers
 * every steal request with "none" at once; a thief sends one request to node 0, and on each "steal
 * failed" reply records the round trip and sends the next one. No jobs, no workers: this is the cost
 * of the steal protocol over the transport.
 */
final class StealRttListener implements RemoteWorkListener {
    private static final int VICTIM_ID = 0;
    /** A request without a reply after this long is given up and sent again (not recorded), as in {@link RawPingPong}. */
    private static final long RESEND_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final boolean thief;
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private volatile NetworkProxy proxy;
    private volatile boolean joined;
    private volatile boolean victimAlive;
    private volatile String failure;
    private volatile int warmup;
    private volatile int target;
    private volatile int completed;
    private volatile long resends;
    private boolean outstanding;
    private long requestId;
    private long sentNs;

    StealRttListener(final boolean thief) {
        this.thief = thief;
    }

    /** Set before the service starts delivering: the agent-thread proxy replies and requests go through. */
    void proxy(final NetworkProxy proxy) {
        this.proxy = proxy;
    }

    boolean joined() {
        return joined && (!thief || victimAlive);
    }

    String failure() {
        return failure;
    }

    /** The first {@code count} round trips are not recorded. Call before the first block. */
    void warmup(final int count) {
        warmup = count;
    }

    /** Asks for round trips until {@code goal} are complete in all. */
    void target(final int goal) {
        target = goal;
    }

    int completed() {
        return completed;
    }

    /** Read between blocks only. */
    Histogram histogram() {
        return histogram;
    }

    @Override
    public void onJoined(final int selfId) {
        joined = true;
    }

    @Override
    public void onJoinFailed(final String message) {
        failure = message;
    }

    @Override
    public void onMembershipChange(final Member member) {
        if (member.id() == VICTIM_ID) {
            victimAlive = member.state() == org.divvy.membership.MemberState.ALIVE;
        }
    }

    @Override
    public void onRegistryLost(final String message) {
        failure = message;
    }

    @Override
    public void onStealRequest(final int thiefId, final long requestId, final boolean wideArea) {
        final NetworkProxy replies = proxy;
        if (replies != null) {
            replies.replyNone(thiefId, requestId);
        }
    }

    @Override
    public void onStealFailed(final int victimId, final long id) {
        if (!outstanding || id != requestId) {
            return;
        }
        final long rttNs = System.nanoTime() - sentNs;
        outstanding = false;
        if (completed >= warmup) {
            histogram.recordValue(rttNs);
        }
        completed++;
        sendNext();
    }

    /** Requests given up after {@link #RESEND_AFTER_NS} without a reply and sent again. */
    long resends() {
        return resends;
    }

    @Override
    public int onDutyCycle(final long nowNs) {
        if (thief && outstanding && System.nanoTime() - sentNs > RESEND_AFTER_NS) {
            outstanding = false;
            resends++;
        }
        return thief && !outstanding ? sendNext() : 0;
    }

    private int sendNext() {
        if (!thief || completed >= target || !joined() || proxy == null) {
            return 0;
        }
        sentNs = System.nanoTime();
        if (proxy.requestSteal(VICTIM_ID, ++requestId, false)) {
            outstanding = true;
            return 1;
        }
        return 0;
    }

    @Override
    public void onStolenJob(final int victimId, final long id, final long ownerJobId, final String jobTypeName,
        final DirectBuffer buffer, final int stampOffset, final int stampLength, final int argumentsOffset, final int argumentsLength) {
        failure = "unexpected stolen job " + jobTypeName + " from " + victimId;
    }

    @Override
    public void onJobResult(final int thiefId, final long ownerJobId, final DirectBuffer buffer, final int offset, final int length) {
    }

    @Override
    public void onJobFailed(final int thiefId, final long ownerJobId, final String exceptionClassName, final String message,
        final String stackTrace) {
    }

    @Override
    public void onJobAborted(final int thiefId, final long ownerJobId) {
    }

    @Override
    public void onAbort(final int senderId, final long ownerJobId) {
    }

    @Override
    public void onTerminate(final int senderId, final int exitCode) {
    }

    @Override
    public void onUndeliverable(final int peerId, final int messageType, final int count) {
        failure = count + " messages of type " + messageType + " to node " + peerId + " undeliverable";
    }
}
