package org.divvy.lifecycle;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.LongHashSet;
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
    /** The message type code (RUN_STARTED): a master started a run, so idle peers steal at once; the header and the run's id. */
    public static final int RUN_STARTED = 11;
    /** The message type code (RUN_ENDED): the sender masters no run any more, so idle peers may park long; header only. */
    public static final int RUN_ENDED = 29;
    /**
     * The message type code (RUN_RESUMED): the sender took over a run whose master died and re-runs its root, so
     * idle peers know a run is active again (the dead master's departure ended it here); unlike RUN_STARTED it keeps
     * the run's per-run tables, the orphans the re-run reuses. The header and the id the taker gives the run.
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
     * The run this node works in, as its master named it ({@link #NO_RUN} before any): RUN_STARTED and RUN_RESUMED carry
     * the id, {@code (master's node id << 32) | its count of runs}. Written by the agent thread, read by any (workers
     * tag what they copy with it).
     */
    private volatile long currentRunId = NO_RUN;
    /** The ids of the current run since its RUN_STARTED: the first master's, and those of masters that took it over. */
    private final LongHashSet runIds = new LongHashSet();
    /** Runs this node started or took over (the low half of its run ids). */
    private long runsMasteredHere;
    /** The id this node announces for the run it masters now. */
    private long ownRunId = NO_RUN;
    /** Runs when the current run ends normally (its master's RUN_ENDED, or this node's own), after its ids are forgotten. */
    private Runnable runEndedAction = () -> { };

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

    /** No run: before the first one, or from a peer whose announcement had no id. */
    public static final long NO_RUN = 0;

    /** What runs when the current run ends normally, on the agent thread (set once, at assembly). */
    public void whenRunEnds(final Runnable action) {
        runEndedAction = action;
    }

    /** The id of the run this node works in ({@link #NO_RUN} before any); any thread. */
    public long currentRunId() {
        return currentRunId;
    }

    /** Whether {@code runId} names the current run (its first master's id, or a later master's); agent thread. */
    public boolean isCurrentRun(final long runId) {
        return runId != NO_RUN && runIds.contains(runId);
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
            ownRunId = newRunId();
            startRun(ownRunId);
            announceRun(RUN_STARTED);
            runAnnounced = true;
            runAnnouncedAtNs = nowNs;
            updateInRun();
            onRunStarted.run();
            work++; // this node's run is starting: it leaves deep idle too
        }
        if (lifecycle.takeRunResumeRequest()) {
            ownRunId = newRunId();
            resumeRun(ownRunId);
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
            if (currentRunId == ownRunId) {
                endRun();
            }
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

    /** A run announcement: RUN_STARTED and RUN_RESUMED carry the id of the run this node masters, RUN_ENDED nothing. */
    private boolean sendHeader(final int peer, final int type) {
        final int length = type == RUN_ENDED ? HeaderFlyweight.HEADER_LENGTH : RUN_ANNOUNCEMENT_LENGTH;
        final MutableDirectBuffer frame = sender.frameBuffer(length);
        header.wrap(frame, 0, length);
        header.headerDefaults(type);
        header.frameLength(length);
        if (type != RUN_ENDED) {
            frame.putLong(HeaderFlyweight.HEADER_LENGTH, ownRunId, HeaderFlyweight.BYTE_ORDER);
        }
        return sender.sendTo(peer, length);
    }

    /** RUN_STARTED and RUN_RESUMED: the header and the run's id. */
    static final int RUN_ANNOUNCEMENT_LENGTH = HeaderFlyweight.HEADER_LENGTH + 8;

    /** The run id a RUN_STARTED or RUN_RESUMED carries, or NO_RUN if it has none. */
    private static long runIdOf(final DirectBuffer buffer, final int offset, final int length) {
        return length >= RUN_ANNOUNCEMENT_LENGTH ? buffer.getLong(offset + HeaderFlyweight.HEADER_LENGTH,
            HeaderFlyweight.BYTE_ORDER) : NO_RUN;
    }

    /** A new id for a run this node masters: its node id and its count of such runs. */
    private long newRunId() {
        return ((long)members.selfId() << 32) | (++runsMasteredHere & 0xFFFF_FFFFL);
    }

    /** A run starts: its id is the only one of the current run. */
    private void startRun(final long runId) {
        runIds.clear();
        if (runId != NO_RUN) {
            runIds.add(runId);
        }
        currentRunId = runId;
    }

    /** The current run ended normally: no id names a current run until the next starts or resumes. */
    private void endRun() {
        runIds.clear();
        currentRunId = NO_RUN;
        runEndedAction.run();
    }

    /** The current run goes on under another master: its id names the run too. */
    private void resumeRun(final long runId) {
        if (runId != NO_RUN) {
            runIds.add(runId);
            currentRunId = runId;
        }
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
        startRun(runIdOf(buffer, offset, length));
        runningPeers.add(senderId);
        updateInRun();
        onRunStarted.run();
        onRunStartedElsewhere.run();
        return 1;
    }

    /** A peer took over a run and re-runs its root: a run is active again; the run's tables stay, its orphans are reused. */
    private int onRunResumed(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        resumeRun(runIdOf(buffer, offset, length)); // a reminder names the run it is in already: nothing changes
        if (!runningPeers.add(senderId)) {
            return 0; // a reminder of a run this node knows already: no wake-up, and failed steals keep backing off
        }
        updateInRun();
        onRunStartedElsewhere.run();
        return 1;
    }

    /** A peer's runs ended: its idle agent may park long again if no other run is active. */
    private int onRunEnded(final int senderId, final DirectBuffer buffer, final int offset, final int length) {
        if (currentRunId != NO_RUN && (int)(currentRunId >>> 32) == senderId && runningPeers.contains(senderId)) {
            endRun(); // the current run's master ended it
        }
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
