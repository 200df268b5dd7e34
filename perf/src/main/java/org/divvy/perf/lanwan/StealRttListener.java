package org.divvy.perf.lanwan;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.membership.Member;
import org.divvy.membership.MembershipListener;
import org.divvy.node.ProtocolPeer;
import org.divvy.stealing.StealReplyFlyweight;
import org.divvy.stealing.StealRequestFlyweight;

/**
 * The thief of the steal round-trip measurement, on a {@link ProtocolPeer}'s agent thread: its duty sends
 * one steal request to node 0 (a real node's {@code Victim}, see {@link RttPeer}) when none is outstanding,
 * and its STEAL_REPLY handler records the round trip and lets the next one go. No jobs, no workers on
 * this side: this is the cost of the steal protocol over the transport plus the victim's real path.
 */
final class StealRttListener implements MembershipListener, Duty {
    private static final int VICTIM_ID = 0;
    /** A request without a reply after this long is given up and sent again (not recorded), as in {@link RawPingPong}. */
    private static final long RESEND_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private final StealRequestFlyweight request = new StealRequestFlyweight();
    private final StealReplyFlyweight reply = new StealReplyFlyweight();
    private FrameSender sender;
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

    /** Registers the STEAL_REPLY handler and the sending duty with {@code peer}; call before {@code peer.start()}. */
    void attach(final ProtocolPeer peer) {
        sender = peer.sender();
        peer.handle(StealReplyFlyweight.TYPE, "STEAL_REPLY", new StealReplyFlyweight(), StealReplyFlyweight.MIN_BODY_LENGTH,
            this::onStealReply).duty(this);
    }

    boolean joined() {
        return joined && victimAlive;
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
    public void onMemberChanged(final Member member) {
        if (member.id() == VICTIM_ID) {
            victimAlive = member.isAlive();
        }
    }

    @Override
    public void onRegistryLost(final String message) {
        failure = message;
    }

    private int onStealReply(final int victimId, final DirectBuffer buffer, final int offset, final int length) {
        reply.wrap(buffer, offset, length);
        if (reply.hasJob()) {
            failure = "unexpected stolen job " + reply.jobTypeName() + " from " + victimId;
            return 0;
        }
        if (!outstanding || victimId != VICTIM_ID || reply.requestId() != requestId) {
            return 0;
        }
        final long rttNs = System.nanoTime() - sentNs;
        outstanding = false;
        if (completed >= warmup) {
            histogram.recordValue(rttNs);
        }
        completed++;
        sendNext();
        return 0;
    }

    /** Requests given up after {@link #RESEND_AFTER_NS} without a reply and sent again. */
    long resends() {
        return resends;
    }

    @Override
    public int doWork(final long nowNs) {
        if (outstanding && System.nanoTime() - sentNs > RESEND_AFTER_NS) {
            outstanding = false;
            resends++;
        }
        return !outstanding ? sendNext() : 0;
    }

    private int sendNext() {
        if (completed >= target || !joined()) {
            return 0;
        }
        sentNs = System.nanoTime();
        final MutableDirectBuffer frame = sender.frameBuffer(StealRequestFlyweight.FRAME_LENGTH);
        request.wrap(frame, 0, StealRequestFlyweight.FRAME_LENGTH);
        request.headerDefaults(StealRequestFlyweight.TYPE);
        request.requestId(++requestId).wideArea(false);
        if (sender.sendTo(VICTIM_ID, StealRequestFlyweight.FRAME_LENGTH)) {
            outstanding = true;
            return 1;
        }
        return 0;
    }
}
