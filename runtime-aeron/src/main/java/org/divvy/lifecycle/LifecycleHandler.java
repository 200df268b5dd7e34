package org.divvy.lifecycle;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.FrameDispatcher.Senders;
import org.divvy.agent.FrameSender;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MembershipListener;
import org.divvy.protocol.HeaderFlyweight;

/**
 * The agent side of a node's lifecycle: it reports joins, members and a lost registry to the
 * {@link NodeLifecycle} application threads wait on; announces a run that starts here (RUN_STARTED) and the
 * end of the computation (TERMINATE) when application threads ask; and receives both from peers.
 *
 * <p>Agent thread only; application threads reach it through {@link NodeLifecycle}'s requests, which its
 * duty takes.
 */
public final class LifecycleHandler implements Duty, MembershipListener {
    /** The message type code (RUN_STARTED): a master started a run, so idle peers steal at once; header only. */
    public static final int RUN_STARTED = 11;

    private final NodeLifecycle lifecycle;
    private final Members members;
    private final FrameSender sender;
    private final Runnable onRunStarted;
    private final Runnable onRunStartedElsewhere;
    private final Runnable onComputationOver;
    private final TerminateFlyweight terminate = new TerminateFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private boolean terminateSent;
    private volatile long runStartsReceived;

    /**
     * @param onRunStarted          runs when a run starts, here or on a peer (fault tolerance's tables are per run).
     * @param onRunStartedElsewhere runs when a peer announces a run (stealing asks at once).
     * @param onComputationOver     runs when a peer ends the computation (jobs held for owners stop).
     */
    public LifecycleHandler(final NodeLifecycle lifecycle, final Members members, final FrameSender sender,
        final Runnable onRunStarted, final Runnable onRunStartedElsewhere, final Runnable onComputationOver) {
        this.onRunStarted = onRunStarted;
        this.lifecycle = lifecycle;
        this.members = members;
        this.sender = sender;
        this.onRunStartedElsewhere = onRunStartedElsewhere;
        this.onComputationOver = onComputationOver;
    }

    /** Registers TERMINATE and RUN_STARTED. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(TerminateFlyweight.TYPE, "TERMINATE", new TerminateFlyweight(), TerminateFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onTerminate);
        dispatcher.register(RUN_STARTED, "RUN_STARTED", new HeaderFlyweight(), 0, Senders.MEMBERS, this::onRunStarted);
    }

    /** RUN_STARTED messages received from peers; any thread. */
    public long runStartsReceived() {
        return runStartsReceived;
    }

    /** Sends the announcements application threads asked for; notices when the TERMINATE left. */
    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        if (lifecycle.takeRunStartRequest()) {
            final MutableDirectBuffer frame = sender.frameBuffer(HeaderFlyweight.HEADER_LENGTH);
            header.wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH);
            header.headerDefaults(RUN_STARTED);
            sender.broadcast(HeaderFlyweight.HEADER_LENGTH);
            onRunStarted.run();
            work++; // this node's run is starting: it leaves deep idle too
        }
        final int terminateCode = lifecycle.terminateRequest();
        if (terminateCode != NodeLifecycle.NO_CODE && !terminateSent) {
            final MutableDirectBuffer frame = sender.frameBuffer(TerminateFlyweight.FRAME_LENGTH);
            terminate.wrap(frame, 0, TerminateFlyweight.FRAME_LENGTH);
            terminate.headerDefaults(TerminateFlyweight.TYPE);
            terminate.exitCode(terminateCode);
            sender.broadcast(TerminateFlyweight.FRAME_LENGTH);
            terminateSent = true;
            work++;
        } else if (terminateSent && !lifecycle.isTerminateFlushed() && sender.isIdle()) {
            lifecycle.onTerminateFlushed();
        }
        return work;
    }

    private int onTerminate(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        terminate.wrap(buffer, offset, length);
        lifecycle.onTerminated(terminate.exitCode());
        onComputationOver.run();
        return 1;
    }

    /** A peer started a run: ends deep idle (work for the computation) and lets the next steal go now. */
    private int onRunStarted(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        runStartsReceived++;
        onRunStarted.run();
        onRunStartedElsewhere.run();
        return 1;
    }

    @Override
    public void onJoined(final int selfId) {
        lifecycle.onJoined(selfId);
    }

    @Override
    public void onJoinFailed(final String message) {
        lifecycle.onJoinFailed(message);
    }

    @Override
    public void onMemberChanged(final Member member) {
        lifecycle.onMembers(members.aliveCount());
    }

    @Override
    public void onLeaveOrdered() {
        lifecycle.onLeaveOrdered();
    }

    @Override
    public void onRegistryLost(final String message) {
        lifecycle.onLost(message);
    }
}
