package org.divvy.lifecycle;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.IntHashSet;
import org.divvy.agent.DeepIdle;
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
 * {@link NodeLifecycle} application threads wait on; announces a run that starts here (RUN_STARTED), a run taken
 * over here (RUN_RESUMED), their end (RUN_ENDED) and the end of the computation (TERMINATE) when application
 * threads ask; and receives them from
 * peers. It keeps {@link DeepIdle#inRun whether a run this node belongs to is active}: one of its own, or one a
 * live peer announced and has not ended (a peer that dies or leaves ends its runs here).
 *
 * <p>Nothing it announces is dropped silently: a peer whose outbound queue refuses an announcement (full, or its
 * link not made yet) is sent it again in every cycle until it takes it or is no longer a live member. Only the
 * latest run announcement is kept per peer (a peer that missed a RUN_STARTED and then the RUN_ENDED needs only the
 * RUN_ENDED). A member that joins while this node masters a run is sent RUN_RESUMED (a run is active; unlike
 * RUN_STARTED it keeps the tables the joiner may already have), so its idle agent does not park long in a run.
 *
 * <p>Agent thread only; application threads reach it through {@link NodeLifecycle}'s requests, which its
 * duty takes.
 */
public final class LifecycleHandler implements Duty, MembershipListener {
    /** The message type code (RUN_STARTED): a master started a run, so idle peers steal at once; header only. */
    public static final int RUN_STARTED = 11;
    /** The message type code (RUN_ENDED): the sender masters no run any more, so idle peers may park long; header only. */
    public static final int RUN_ENDED = 29;
    /**
     * The message type code (RUN_RESUMED): the sender took over a run whose master died and re-runs its root, so
     * idle peers know a run is active again (the dead master's departure ended it here); unlike RUN_STARTED it keeps
     * the run's per-run tables, the orphans the re-run reuses. Header only.
     */
    public static final int RUN_RESUMED = 30;
    /**
     * How often a node that masters a run tells every live peer again that it is active (RUN_RESUMED). A peer steals
     * only while it knows of a run, and a RUN_* from a sender not yet in its member list is dropped like any
     * non-member's frame: a member joining just as a run starts (the master's RUN_STARTED or RUN_RESUMED reaching it
     * before the member list naming the master) would otherwise sit the whole run out. One header frame per peer a
     * second; RUN_RESUMED keeps the receiver's tables, so hearing it again changes nothing else.
     */
    static final long RUN_REMINDER_INTERVAL_NS = 1_000_000_000L;

    private final NodeLifecycle lifecycle;
    private final Members members;
    private final FrameSender sender;
    private final Runnable onRunStarted;
    private final Runnable onRunStartedElsewhere;
    private final Runnable onComputationOver;
    private final TerminateFlyweight terminate = new TerminateFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final DeepIdle deepIdle;
    /** Members whose RUN_STARTED came and whose RUN_ENDED did not yet (they master a run now). */
    private final IntHashSet runningPeers = new IntHashSet();
    /** This node told its peers it masters a run (RUN_STARTED sent, RUN_ENDED not yet). */
    private boolean runAnnounced;
    /** When this node last told its peers that its run is active (RUN_STARTED, RUN_RESUMED or a reminder). */
    private long runAnnouncedAtNs;
    private boolean terminateSent;
    private int terminateCode;
    /** Peers a run announcement did not reach yet, with the latest one they are owed (its type). */
    private final Int2IntHashMap runAnnouncementOwed = new Int2IntHashMap(0);
    /** Peers the TERMINATE did not reach yet. */
    private final IntHashSet terminateOwed = new IntHashSet();
    private volatile long runStartsReceived;

    /**
     * @param onRunStarted          runs when a run starts, here or on a peer (fault tolerance's tables are per run).
     * @param onRunStartedElsewhere runs when a peer announces a run (stealing asks at once).
     * @param onComputationOver     runs when a peer ends the computation (jobs held for owners stop).
     */
    public LifecycleHandler(final NodeLifecycle lifecycle, final Members members, final FrameSender sender,
        final Runnable onRunStarted, final Runnable onRunStartedElsewhere, final Runnable onComputationOver) {
        this(lifecycle, members, sender, onRunStarted, onRunStartedElsewhere, onComputationOver, new DeepIdle(Long.MAX_VALUE));
    }

    /** @param deepIdle told whether a run this node belongs to is active. */
    public LifecycleHandler(final NodeLifecycle lifecycle, final Members members, final FrameSender sender,
        final Runnable onRunStarted, final Runnable onRunStartedElsewhere, final Runnable onComputationOver,
        final DeepIdle deepIdle) {
        this.deepIdle = deepIdle;
        this.onRunStarted = onRunStarted;
        this.lifecycle = lifecycle;
        this.members = members;
        this.sender = sender;
        this.onRunStartedElsewhere = onRunStartedElsewhere;
        this.onComputationOver = onComputationOver;
    }

    /** Registers TERMINATE, RUN_STARTED, RUN_RESUMED and RUN_ENDED. */
    public void register(final FrameDispatcher dispatcher) {
        dispatcher.register(TerminateFlyweight.TYPE, "TERMINATE", new TerminateFlyweight(), TerminateFlyweight.MIN_BODY_LENGTH,
            Senders.MEMBERS, this::onTerminate);
        dispatcher.register(RUN_STARTED, "RUN_STARTED", new HeaderFlyweight(), 0, Senders.MEMBERS, this::onRunStarted);
        dispatcher.register(RUN_RESUMED, "RUN_RESUMED", new HeaderFlyweight(), 0, Senders.MEMBERS, this::onRunResumed);
        dispatcher.register(RUN_ENDED, "RUN_ENDED", new HeaderFlyweight(), 0, Senders.MEMBERS, this::onRunEnded);
    }

    /** Whether a run this node belongs to is active, as this node knows (agent thread; tests stepping the agent). */
    public boolean isInRun() {
        return deepIdle.isInRun();
    }

    /** RUN_STARTED messages received from peers; any thread. */
    public long runStartsReceived() {
        return runStartsReceived;
    }

    /**
     * Not paced: a run's start must reach the peers before the jobs and results of that run do (a peer's
     * RUN_STARTED resets its per-run tables, which would drop what it kept of the new run's early work), and the
     * victim hands out the new run's jobs in every cycle. Its idle check is two plain reads.
     */
    @Override
    public boolean isPaced() {
        return false;
    }

    /** Sends the announcements application threads asked for, and again those a peer refused; notices when the TERMINATE left. */
    @Override
    public int doWork(final long nowNs) {
        int work = 0;
        if (lifecycle.takeRunStartRequest()) {
            announceRun(RUN_STARTED);
            runAnnounced = true;
            runAnnouncedAtNs = nowNs;
            updateInRun();
            onRunStarted.run();
            work++; // this node's run is starting: it leaves deep idle too
        }
        if (lifecycle.takeRunResumeRequest()) {
            announceRun(RUN_RESUMED); // a takeover: the run's tables stay (no onRunStarted)
            runAnnounced = true;
            runAnnouncedAtNs = nowNs;
            updateInRun();
            work++;
        }
        if (runAnnounced && !lifecycle.isRunningHere()) {
            // after the RUN_STARTED of the same cycle, if a run started and ended between two cycles
            announceRun(RUN_ENDED);
            runAnnounced = false;
            updateInRun();
            work++;
        }
        if (runAnnounced && nowNs - runAnnouncedAtNs >= RUN_REMINDER_INTERVAL_NS) {
            runAnnouncedAtNs = nowNs;
            remindPeersOfRun(); // not work: a reminder must not keep an idle master's agent out of deep idle
        }
        if (!runAnnouncementOwed.isEmpty()) {
            work += sendOwedRunAnnouncements();
        }
        final int terminateRequest = lifecycle.terminateRequest();
        if (terminateRequest != NodeLifecycle.NO_CODE && !terminateSent) {
            terminateCode = terminateRequest;
            for (final int peer : members.aliveOthers()) {
                if (!sendTerminate(peer)) {
                    terminateOwed.add(peer);
                }
            }
            terminateSent = true;
            work++;
        } else if (!terminateOwed.isEmpty()) {
            work += sendOwedTerminates();
        } else if (terminateSent && !lifecycle.isTerminateFlushed() && sender.isIdle()) {
            lifecycle.onTerminateFlushed();
        }
        return work;
    }

    /** Sends run announcement {@code type} to every live peer; a peer that refuses it is owed it. */
    private void announceRun(final int type) {
        for (final int peer : members.aliveOthers()) {
            if (sendHeader(peer, type)) {
                runAnnouncementOwed.remove(peer); // an older one it still owed is superseded
            } else {
                runAnnouncementOwed.put(peer, type);
            }
        }
    }

    /**
     * RUN_RESUMED to every live peer not owed an announcement already (an owed RUN_STARTED must stay: it resets the
     * peer's per-run tables for the new run, which RUN_RESUMED would not); a refused one is owed.
     */
    private void remindPeersOfRun() {
        for (final int peer : members.aliveOthers()) {
            if (!runAnnouncementOwed.containsKey(peer) && !sendHeader(peer, RUN_RESUMED)) {
                runAnnouncementOwed.put(peer, RUN_RESUMED);
            }
        }
    }

    private int sendOwedRunAnnouncements() {
        int sent = 0;
        final Int2IntHashMap.EntryIterator owed = runAnnouncementOwed.entrySet().iterator();
        while (owed.hasNext()) {
            owed.next();
            final int peer = owed.getIntKey();
            if (members.aliveEndpoint(peer) == null) {
                owed.remove(); // dead or gone: nothing to tell it
            } else if (sendHeader(peer, owed.getIntValue())) {
                owed.remove();
                sent++;
            }
        }
        return sent;
    }

    private int sendOwedTerminates() {
        int sent = 0;
        final IntHashSet.IntIterator owed = terminateOwed.iterator();
        while (owed.hasNext()) {
            final int peer = owed.nextValue();
            if (members.aliveEndpoint(peer) == null) {
                owed.remove();
            } else if (sendTerminate(peer)) {
                owed.remove();
                sent++;
            }
        }
        return sent;
    }

    private boolean sendHeader(final int peer, final int type) {
        final MutableDirectBuffer frame = sender.frameBuffer(HeaderFlyweight.HEADER_LENGTH);
        header.wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH);
        header.headerDefaults(type);
        return sender.sendTo(peer, HeaderFlyweight.HEADER_LENGTH);
    }

    private boolean sendTerminate(final int peer) {
        final MutableDirectBuffer frame = sender.frameBuffer(TerminateFlyweight.FRAME_LENGTH);
        terminate.wrap(frame, 0, TerminateFlyweight.FRAME_LENGTH);
        terminate.headerDefaults(TerminateFlyweight.TYPE);
        terminate.exitCode(terminateCode);
        return sender.sendTo(peer, TerminateFlyweight.FRAME_LENGTH);
    }

    private void updateInRun() {
        deepIdle.inRun(runAnnounced || !runningPeers.isEmpty());
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
        runningPeers.add(senderId);
        updateInRun();
        onRunStarted.run();
        onRunStartedElsewhere.run();
        return 1;
    }

    /** A peer took over a run and re-runs its root: a run is active again; the run's tables stay, its orphans are reused. */
    private int onRunResumed(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (!runningPeers.add(senderId)) {
            return 0; // a reminder of a run this node knows already: no wake-up, and failed steals keep backing off
        }
        updateInRun();
        onRunStartedElsewhere.run();
        return 1;
    }

    /** A peer's runs ended: its idle agent may park long again if no other run is active. */
    private int onRunEnded(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        runningPeers.remove(senderId);
        updateInRun();
        return 0; // nothing for the computation to do
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
        if (!member.isAlive() && runningPeers.remove(member.id())) {
            updateInRun(); // a dead or departed master ends no run any more: its RUN_ENDED will not come
        }
        if (member.isAlive() && runAnnounced && member.id() != members.selfId()
            && runAnnouncementOwed.get(member.id()) != RUN_STARTED) {
            // a member that joined during this node's run learns it is active (its agent must not park long);
            // RUN_RESUMED keeps what it already holds (RUN_STARTED would clear its per-run tables)
            runAnnouncementOwed.put(member.id(), RUN_RESUMED); // sent in the next cycle, when its link is made
        }
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
