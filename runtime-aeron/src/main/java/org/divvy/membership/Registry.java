package org.divvy.membership;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.Long2LongHashMap;
import org.divvy.DivvyException;
import org.divvy.NodeConfig;
import org.divvy.agent.Duty;
import org.divvy.agent.FrameSender;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.transport.LossListener;

/**
 * The registry role (the Ibis Registry of the thesis, §2.2): assigns node ids in join order, keeps the
 * member list with site labels and an epoch that grows with every change, sends the whole list to a
 * joiner (its JOIN_ACK) and to every alive member after each join, leave or death, heartbeats the
 * members and declares a member dead when its phi-accrual failure detector suspects it
 * ({@link PhiAccrualFailureDetector}: silent for about the acceptable heartbeat pause plus its usual rhythm).
 * Two certain signs of a death come sooner: the process that started a member saw it exit ({@link #reportExited}),
 * or a member silent for a few heartbeat intervals is probed and its host answers that nothing holds its port any
 * more ({@link ExitProbe}); a stopped member gives neither sign, so only the detector removes it.
 *
 * <p>When the registry itself was stopped (its duty cycles stopped for more than half the acceptable
 * pause: {@link OwnPauseDetector}), it heard nobody meanwhile, so it restarts every member's detection
 * instead of declaring them all dead. A member declared dead that is heard again (it was stopped longer
 * than the others wait) is sent the list that shows it dead, at most once a second, so it learns why it
 * was removed instead of blaming the registry's silence.
 *
 * <p>Ids are never reused, and dead or departed members stay in the list with their state, so a late
 * frame from them is recognised and cut. A repeated JOIN from the same endpoint (the ack was lost) is
 * answered with the same id.
 *
 * <p>Joins are challenged: a JOIN is accepted only with the cookie of a {@link JoinChallengeFlyweight
 * JOIN_CHALLENGE} for its nonce and endpoint, so a recorded JOIN replayed later joins nobody. The challenge
 * also tells the joiner the run key id this registry chose at random, under which every other frame of the
 * run travels. The first member that runs jobs fixes the run's build digest; a joiner with another one is
 * {@link JoinRefusedFlyweight refused} with a message.
 *
 * <p>Its {@link #doWork} (heartbeats, deaths) is a housekeeping duty. Owned by the agent thread that
 * hosts it (a node's network agent, or a {@link StandaloneRegistry}).
 */
public final class Registry implements Duty, LossListener, AutoCloseable {
    /** The sender id on the registry's frames; not a node id. */
    public static final int REGISTRY_ID = -2;
    private static final System.Logger LOG = System.getLogger(Registry.class.getName());
    /**
     * A reporter of lost messages that was stopped itself for this long (5 s, half of Aeron's image liveness
     * timeout) broke its own streams: it is the one declared dead, not the peer it names.
     */
    static final long LOSS_REPORTER_PAUSE_BLAME_MS = 5_000;
    /**
     * A member may have one peer declared dead for lost messages per this window (30 s); a second peer named
     * within it removes the reporter instead: a node whose streams from several peers break is the likelier fault,
     * and a confused or hostile member removes at most one other before it goes itself.
     */
    static final long LOSS_ACCUSATION_WINDOW_NS = TimeUnit.SECONDS.toNanos(30);
    /**
     * A member silent for this many heartbeat intervals is probed ({@link ExitProbe}): three, so that the usual
     * lateness of a heartbeat on a busy machine costs nothing, and a killed member is found about 0.3 s after its last
     * heartbeat instead of after the failure detector's acceptable pause.
     */
    static final int PROBE_AFTER_SILENT_INTERVALS = 3;
    /**
     * A member silent this long is no longer probed, and a late answer no longer counts: its failure detector alone
     * decides. A member that is a client of an external media driver does not hold its port itself: the driver
     * closes a client's subscription, and so its port, once the client has been silent for the driver's client
     * liveness timeout (Aeron's default is 10 s), so past that a closed port no longer proves the process gone,
     * and a stopped member would be declared dead sooner than the acceptable pause allows. 5 s stays well inside
     * that default; a killed member's port is found closed about 0.3 s after its last heartbeat.
     */
    static final long PROBE_UNTIL_SILENT_NS = TimeUnit.SECONDS.toNanos(5);
    /** How often a removed member that is still heard is told it was removed. */
    private static final long REMOVED_NOTICE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final long heartbeatIntervalNs;
    private final FrameSender sender;
    private final PhiAccrualFailureDetector detector;
    private final OwnPauseDetector ownPause;
    /** Asks whether a silent member's process still holds its port; see {@link #PROBE_AFTER_SILENT_INTERVALS}. */
    private final ExitProbe exitProbe;
    private final long probeAfterNs;
    private final IntConsumer onPortClosed = this::onPortClosed;
    /** Members declared dead because a probe found their port closed; read by any thread. */
    private volatile long deathsFoundByProbe;
    /** When each removed member that spoke again was last told so. */
    private final Long2LongHashMap removedNoticeNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** Per member, when a peer it reported a loss from was last declared dead on its word. */
    private final Long2LongHashMap lastAccusationNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** Members a standalone registry lost messages to or from itself, to declare dead in the next duty. */
    private final IntArrayList ownLosses = new IntArrayList();
    /** Members declared dead because messages to or from them were lost; read by any thread. */
    private volatile long removedForLoss;
    private final List<Member> members = new ArrayList<>();
    private final MemberListFlyweight list = new MemberListFlyweight();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
    private final JoinRefusedFlyweight refused = new JoinRefusedFlyweight();
    private final LeaveAnswerFlyweight leaveAnswer = new LeaveAnswerFlyweight();
    /** Members sent a LEAVE_ORDER (ids are never reused): they count as gone for the last-member rule. */
    private final IntHashSet orderedOut = new IntHashSet();
    /** Why a member may not be ordered to leave, or null: set by the {@link RootKeeper} (a submitter waits). */
    private IntFunction<String> leaveVeto = id -> null;
    private final int runKeyId;
    private final String selfEndpoint;
    /** Keyed with random bytes only this registry holds: a cookie needs no state per challenge. */
    private final Mac cookieMac;
    /** The build digest of the run: the first member's that runs jobs; null until then. */
    private byte[] runDigest;
    private int epoch;
    /**
     * Members whose process is known to have exited (any thread adds; the agent drains): told by the process
     * that started them ({@link #reportExited}), which the operating system told at once.
     */
    private final ConcurrentLinkedQueue<Integer> exitedInbox = new ConcurrentLinkedQueue<>();
    /** Members whose process ended after it was asked to leave, or normally: graceful leavers ({@link #reportLeftAndExited}). */
    private final ConcurrentLinkedQueue<Integer> leftInbox = new ConcurrentLinkedQueue<>();
    /** Members declared dead because their process was reported exited, not because they went silent. */
    private volatile long deathsReportedByLauncher;
    private final PhiAccrualFailureDetector.SuspicionHandler onSuspected = (id, silenceNs, phi) ->
        changeState(id, MemberState.DEAD);
    private long nextHeartbeatNs;
    /** Whether {@link #nextHeartbeatNs} was set: deadlines start from the first clock reading, whatever its origin. */
    private boolean heartbeating;

    /**
     * A registry whose run's build is fixed by the first member that runs jobs, and that does not probe silent
     * members (tests whose endpoints name no socket).
     */
    public Registry(final NodeConfig config, final FrameSender sender, final String selfEndpoint) {
        this(config, sender, selfEndpoint, new byte[0], false);
    }

    /**
     * @param config       the heartbeat interval and the failure detector's settings.
     * @param selfEndpoint where the registry is reached: told to joiners, who send there from then on.
     * @param hostDigest   the build digest of the node that hosts the registry (it fixes the run's, so a
     *                     joiner of another build that comes first cannot lock the host out); empty: none.
     * @param probeExits   whether members' endpoints are real UDP ports that a silent member is probed at
     *                     ({@link ExitProbe}; {@code Transport.endpointsAreUdpPorts()}).
     */
    public Registry(final NodeConfig config, final FrameSender sender, final String selfEndpoint, final byte[] hostDigest,
        final boolean probeExits) {
        this.selfEndpoint = selfEndpoint;
        this.runDigest = hostDigest.length == 0 ? null : hostDigest.clone();
        this.heartbeatIntervalNs = TimeUnit.MILLISECONDS.toNanos(config.heartbeatIntervalMs());
        this.probeAfterNs = PROBE_AFTER_SILENT_INTERVALS * heartbeatIntervalNs;
        this.exitProbe = probeExits ? new ExitProbe() : null;
        this.sender = sender;
        this.detector = PhiAccrualFailureDetector.of(config);
        this.ownPause = new OwnPauseDetector(OwnPauseDetector.thresholdFor(detector.acceptablePauseNs(), heartbeatIntervalNs));
        final SecureRandom random = new SecureRandom();
        int id;
        do {
            id = random.nextInt();
        } while (id == 0); // 0 is the join key's id
        this.runKeyId = id;
        final byte[] cookieKey = new byte[32];
        random.nextBytes(cookieKey);
        try {
            cookieMac = Mac.getInstance("HmacSHA256");
            cookieMac.init(new SecretKeySpec(cookieKey, "HmacSHA256"));
        } catch (final GeneralSecurityException e) {
            throw new DivvyException("this JVM has no HmacSHA256, which join challenges need: " + e);
        }
    }

    /** The id of this run's key (random, never 0), told to every joiner in its challenge. */
    public int runKeyId() {
        return runKeyId;
    }

    int epoch() {
        return epoch;
    }

    /** A copy of the list, for tests and tools. */
    public List<Member> members() {
        return List.copyOf(members);
    }

    /**
     * A JOIN arrived: challenge it if it has no valid cookie, refuse it if its build differs from the run's,
     * else assign an id (or repeat the one given to that endpoint) and send the lists.
     *
     * @return false, with nobody added, when its endpoint is not a {@code host:port} to send to.
     */
    boolean onJoin(final JoinFlyweight join, final long nowNs) {
        final String endpoint = join.endpoint();
        if (!isHostPort(endpoint)) {
            return false;
        }
        if (challengeUnlessCookie(join.nonce(), join.cookie(), endpoint)) {
            return true;
        }
        final byte[] digest = join.digest();
        if (digest.length > 0) {
            if (runDigest == null) {
                runDigest = digest;
            } else if (!Arrays.equals(runDigest, digest)) {
                refuse(endpoint, join.nonce(), "its build of the application differs from the run's (job types and " +
                    "codecs digest " + shortHex(digest) + ", the run's " + shortHex(runDigest) + "): start every node " +
                    "from the same application jar");
                return true;
            }
        }
        for (final Member member : members) {
            if (member.endpoint().equals(endpoint) && member.isAlive()) {
                detector.onHeard(member.id(), nowNs);
                sendList(member.endpoint(), member.id());
                return true;
            }
        }
        final Member joiner = new Member(members.size(), join.site(), endpoint, MemberState.ALIVE);
        members.add(joiner);
        epoch++;
        detector.onHeard(joiner.id(), nowNs);
        sendList(joiner.endpoint(), joiner.id());
        broadcastList(joiner.id());
        return true;
    }

    /**
     * A LEAVE_REQUEST from an operator's tool ({@code divvy leave}): challenged like a JOIN (no valid cookie: only the
     * challenge goes back); with one, each named alive member is sent a LEAVE_ORDER and leaves gracefully, and the
     * tool gets a LEAVE_ANSWER per node. Not ordered out: this registry's own host (its death would end the run;
     * surviving the registry's loss is future work), the last alive member (nobody would be left to compute), a
     * member the {@link #leaveVeto} keeps (a submitter waiting for its value), unknown and gone members. A member
     * ordered out already is answered so again (a repeated request), and no longer counts as staying.
     *
     * @return false, with nothing sent, when its endpoint is not a {@code host:port} to send to.
     */
    boolean onLeaveRequest(final LeaveRequestFlyweight request) {
        final String endpoint = request.endpoint();
        if (!isHostPort(endpoint) || challengeUnlessCookie(request.nonce(), request.cookie(), endpoint)) {
            return isHostPort(endpoint);
        }
        int staying = 0;
        for (final Member member : members) {
            staying += member.isAlive() && !orderedOut.contains(member.id()) ? 1 : 0;
        }
        for (int i = 0; i < request.nodeIdCount(); i++) {
            final int id = request.nodeId(i);
            final String veto = id >= 0 && id < members.size() ? leaveVeto.apply(id) : null;
            final String answer;
            if (id < 0 || id >= members.size()) {
                answer = "no such member (members are nodes 0 to " + (members.size() - 1) + ")";
            } else if (!members.get(id).isAlive()) {
                answer = "not asked: it " + (members.get(id).state() == MemberState.LEFT ? "left" : "died") + " already";
            } else if (orderedOut.contains(id)) {
                answer = "asked to leave already (" + members.get(id).endpoint() + ")";
            } else if (members.get(id).endpoint().equals(selfEndpoint)) {
                answer = "not asked: it hosts the registry, which the run cannot lose (surviving the registry's loss "
                    + "is future work)";
            } else if (staying == 1) {
                answer = "not asked: it is the last member, and nobody would be left to compute";
            } else if (veto != null) {
                answer = "not asked: " + veto;
            } else if (orderToLeave(members.get(id))) {
                orderedOut.add(id);
                staying--;
                answer = "asked to leave (" + members.get(id).endpoint() + ")";
            } else {
                answer = "not asked: the order could not be sent now; try again";
            }
            final String text = "node " + id + ": " + answer;
            final MutableDirectBuffer frame = sender.frameBuffer(LeaveAnswerFlyweight.lengthBound(text));
            leaveAnswer.wrap(frame, 0, frame.capacity());
            leaveAnswer.headerDefaults(LeaveAnswerFlyweight.TYPE).senderId(REGISTRY_ID).epoch(epoch);
            leaveAnswer.fields(request.nonce(), id, text);
            sender.sendToEndpoint(endpoint, leaveAnswer.frameLength());
        }
        return true;
    }

    /**
     * Sends a JOIN_CHALLENGE to {@code endpoint} unless {@code cookie} is the one for its nonce and endpoint; whether
     * it did (then the message that carried the cookie goes no further).
     */
    private boolean challengeUnlessCookie(final long nonce, final long cookie, final String endpoint) {
        final long expectedCookie = cookie(nonce, endpoint);
        if (cookie == expectedCookie) {
            return false;
        }
        final MutableDirectBuffer frame = sender.frameBuffer(JoinChallengeFlyweight.lengthBound(selfEndpoint));
        challenge.wrap(frame, 0, frame.capacity());
        challenge.headerDefaults(JoinChallengeFlyweight.TYPE).senderId(REGISTRY_ID).epoch(epoch);
        challenge.fields(nonce, expectedCookie, runKeyId, selfEndpoint);
        sender.sendToEndpoint(endpoint, challenge.frameLength());
        return true;
    }

    /** Sets why a member may not be ordered to leave (null: it may); agent thread, before the first request. */
    void leaveVeto(final IntFunction<String> veto) {
        this.leaveVeto = veto;
    }

    /** LEAVE_ORDER to {@code member} (header only, under the run key); whether it was handed to the transport. */
    private boolean orderToLeave(final Member member) {
        final MutableDirectBuffer frame = sender.frameBuffer(HeaderFlyweight.HEADER_LENGTH);
        header.wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH);
        header.headerDefaults(MembershipMessages.LEAVE_ORDER).senderId(REGISTRY_ID).epoch(epoch);
        return sender.sendToEndpoint(member.endpoint(), HeaderFlyweight.HEADER_LENGTH);
    }

    private void refuse(final String endpoint, final long nonce, final String reason) {
        final MutableDirectBuffer frame = sender.frameBuffer(JoinRefusedFlyweight.REASON_OFFSET +
            JoinRefusedFlyweight.VAR_LENGTH_PREFIX + 3L * reason.length());
        refused.wrap(frame, 0, frame.capacity());
        refused.headerDefaults(JoinRefusedFlyweight.TYPE).senderId(REGISTRY_ID).epoch(epoch);
        refused.fields(nonce, reason);
        sender.sendToEndpoint(endpoint, refused.frameLength());
    }

    /** The cookie for a joiner's nonce and endpoint: a MAC only this registry can make; never 0 (no cookie). */
    private long cookie(final long nonce, final String endpoint) {
        for (int i = 0; i < 8; i++) {
            cookieMac.update((byte) (nonce >>> (8 * i)));
        }
        cookieMac.update(endpoint.getBytes(StandardCharsets.UTF_8));
        final byte[] mac = cookieMac.doFinal();
        long cookie = 0;
        for (int i = 0; i < 8; i++) {
            cookie |= (mac[i] & 0xFFL) << (8 * i);
        }
        return cookie == 0 ? 1 : cookie;
    }

    private static String shortHex(final byte[] digest) {
        return HexFormat.of().formatHex(digest, 0, Math.min(6, digest.length));
    }

    /** A member's heartbeat (or any frame that proves it alive). */
    void onHeartbeat(final int senderId, final long nowNs) {
        if (isAlive(senderId)) {
            detector.onHeard(senderId, nowNs);
        }
    }

    /**
     * A heartbeat from a member this registry declared dead: it was stopped for longer than the others wait
     * and runs again. It is sent the list that shows it dead (at most once a second), so it stops and says
     * why instead of waiting for a registry that no longer answers it.
     */
    void onHeartbeatFromRemoved(final int senderId, final long nowNs) {
        if (senderId < 0 || senderId >= members.size() || members.get(senderId).state() != MemberState.DEAD) {
            return;
        }
        final long toldNs = removedNoticeNs.get(senderId);
        if (toldNs == Long.MIN_VALUE || nowNs - (toldNs + REMOVED_NOTICE_INTERVAL_NS) >= 0) {
            removedNoticeNs.put(senderId, nowNs);
            sendList(members.get(senderId).endpoint(), MemberListFlyweight.NO_ASSIGNED_ID);
        }
    }

    /**
     * A member reports messages lost in transit between it and a peer (STREAM_LOST): nothing is sent again, so one of
     * the two is declared dead as if it had crashed, and recovery re-runs the lost work on both sides (a thief's
     * jobs run again at their owners, an owner's orphans are kept). Which one: never the node that hosts this
     * registry (the run cannot lose it); else the reporter if it was stopped itself for
     * {@link #LOSS_REPORTER_PAUSE_BLAME_MS} or more (its own stop broke its streams), or if a peer was removed on its
     * word within {@link #LOSS_ACCUSATION_WINDOW_NS} (so a member flooding reports removes at most one other);
     * else the peer. Reports about members gone already change nothing: their loss was handled.
     *
     * @return 1 if a member was declared dead, else 0.
     */
    int onStreamLost(final int reporterId, final StreamLostFlyweight report, final long nowNs) {
        if (!isAlive(reporterId) || (report.peerId() < 0 && report.peerId() != REGISTRY_ID)) {
            return 0; // a negative id other than the registry's names nobody
        }
        final int hostId = hostId();
        final int peerId = report.peerId() == REGISTRY_ID ? hostId : report.peerId();
        if (peerId != -1 && !isAlive(peerId)) {
            return 0;
        }
        final String lost = (report.lost() > 0 ? report.lost() + " message(s)" : "messages") +
            (report.sentByReporter() ? " from node " + reporterId + " to " + peerName(peerId) :
                " from " + peerName(peerId) + " to node " + reporterId);
        final int dead;
        final String why;
        if (peerId == reporterId) {
            if (reporterId == hostId) {
                sendList(selfEndpoint, MemberListFlyweight.NO_ASSIGNED_ID); // the registry's own list, again
                LOG.log(System.Logger.Level.WARNING, lost + " were lost in transit (a stream of the registry's host to "
                    + "itself): the member list is sent to it again");
                return 0;
            }
            dead = reporterId;
            why = "its stream to itself broke";
        } else if (reporterId == hostId) {
            dead = peerId;
            why = "the registry's host cannot be removed";
        } else if (peerId == hostId || peerId == -1) {
            dead = reporterId;
            why = "the registry and its host cannot be removed";
        } else if (report.reporterPausedMs() >= LOSS_REPORTER_PAUSE_BLAME_MS) {
            dead = reporterId;
            why = "node " + reporterId + " was stopped for " + report.reporterPausedMs() + " ms itself, which broke its "
                + "streams";
        } else {
            final long lastNs = lastAccusationNs.get(reporterId);
            if (lastNs != Long.MIN_VALUE && nowNs - lastNs < LOSS_ACCUSATION_WINDOW_NS) {
                dead = reporterId;
                why = "node " + reporterId + " had a peer removed for lost messages less than "
                    + TimeUnit.NANOSECONDS.toSeconds(LOSS_ACCUSATION_WINDOW_NS) + " s ago: a node whose streams from "
                    + "several peers break is the likelier fault";
            } else {
                lastAccusationNs.put(reporterId, nowNs);
                dead = peerId;
                why = "node " + peerId + " is the peer whose stream broke";
            }
        }
        final Member member = members.get(dead);
        LOG.log(System.Logger.Level.WARNING, "node " + dead + " (site " + member.site() + ", " + member.endpoint()
            + ") is declared dead: " + lost + " were lost in transit (Aeron gave up on a stream; nothing is sent "
            + "again), handled as the failure of one side (" + why + "); its work is recovered as after a crash");
        removedForLoss++;
        detector.remove(dead);
        changeState(dead, MemberState.DEAD);
        return 1;
    }

    /**
     * A registry on a transport of its own ({@link StandaloneRegistry}) lost messages from member {@code senderId}
     * (ROOT, RUN_RESULT, LEAVE may be among them): the member is declared dead in the next duty, since the registry
     * cannot be. A node that hosts the registry reports through its {@link MembershipClient} instead.
     */
    @Override
    public void onReceiveLoss(final int senderId, final long lost) {
        if (isAlive(senderId) && !ownLosses.containsInt(senderId)) {
            ownLosses.addInt(senderId);
        }
    }

    /** As {@link #onReceiveLoss}, for messages this registry sent to the member at {@code peerEndpoint}. */
    @Override
    public void onSendLoss(final String peerEndpoint) {
        for (final Member member : members) {
            if (member.isAlive() && member.endpoint().equals(peerEndpoint) && !ownLosses.containsInt(member.id())) {
                ownLosses.addInt(member.id());
            }
        }
    }

    private int declareOwnLosses() {
        int work = 0;
        for (int i = 0; i < ownLosses.size(); i++) {
            final int id = ownLosses.getInt(i);
            if (isAlive(id)) {
                final Member member = members.get(id);
                LOG.log(System.Logger.Level.WARNING, "node " + id + " (site " + member.site() + ", " + member.endpoint()
                    + ") is declared dead: messages between it and the registry were lost in transit (Aeron gave up on "
                    + "a stream; nothing is sent again), handled as its failure; its work is recovered as after a crash");
                removedForLoss++;
                detector.remove(id);
                changeState(id, MemberState.DEAD);
                work++;
            }
        }
        ownLosses.clear();
        return work;
    }

    /** Members declared dead because messages to or from them were lost in transit; any thread. */
    public long removedForLoss() {
        return removedForLoss;
    }

    /** The alive member at this registry's endpoint (the node that hosts it), or -1 (a standalone registry). */
    private int hostId() {
        for (final Member member : members) {
            if (member.isAlive() && member.endpoint().equals(selfEndpoint)) {
                return member.id();
            }
        }
        return -1;
    }

    private String peerName(final int peerId) {
        return peerId == -1 ? "the registry" : "node " + peerId;
    }

    /** A member leaves gracefully. */
    void onLeave(final int senderId) {
        if (isAlive(senderId)) {
            detector.remove(senderId);
            changeState(senderId, MemberState.LEFT);
        }
    }

    /**
     * Member {@code id}'s process has exited (any thread): the process that started it saw the exit, which the
     * operating system reports at once, so the registry declares it dead in its next cycle instead of after the
     * failure detector's wait of seconds (Satin's registry learns the same from a closed TCP connection). Only
     * the starter may say so: a process exit is certain, silence is not. A member that left or was declared
     * dead already is not changed; a graceful leaver's LEAVE comes before its exit.
     */
    public void reportExited(final int id) {
        exitedInbox.add(id);
    }

    /**
     * Member {@code id}'s process has ended after it left gracefully (any thread): its starter asked it to leave,
     * or it ended normally mid-run, which only a leave on the registry's order does. Its LEAVE may still be on its
     * way (the exit can overtake it): it is marked LEFT in the agent's next cycle, as its LEAVE would have done,
     * not declared dead (which would tell every node a leaver crashed).
     */
    public void reportLeftAndExited(final int id) {
        leftInbox.add(id);
    }

    /** Members declared dead because their starter reported their process exited; any thread. */
    public long deathsReportedByLauncher() {
        return deathsReportedByLauncher;
    }

    @Override
    public boolean isHousekeeping() {
        return true;
    }

    /** Paced: heartbeats, failure detection, exit probes and launcher reports: milliseconds or more. */
    @Override
    public boolean isPaced() {
        return true;
    }

    /**
     * Restarts failure detection after a pause of the registry itself, declares suspected members dead
     * and sends heartbeats when due; returns the work done.
     */
    @Override
    public int doWork(final long nowNs) {
        if (ownPause.onCycle(nowNs) > 0) {
            detector.restartAll(nowNs); // nobody could be heard while this process was stopped
        }
        int work = detector.pollSuspected(nowNs, onSuspected);
        for (Integer exited = exitedInbox.poll(); exited != null; exited = exitedInbox.poll()) {
            if (isAlive(exited)) {
                detector.remove(exited);
                deathsReportedByLauncher++;
                changeState(exited, MemberState.DEAD);
                work++;
            }
        }
        for (Integer left = leftInbox.poll(); left != null; left = leftInbox.poll()) {
            if (isAlive(left)) {
                onLeave(left);
                work++;
            }
        }
        if (!ownLosses.isEmpty()) {
            work += declareOwnLosses();
        }
        if (exitProbe != null) {
            work += exitProbe.pollGone(onPortClosed);
        }
        if (!heartbeating || nowNs - nextHeartbeatNs >= 0) {
            heartbeating = true;
            nextHeartbeatNs = nowNs + heartbeatIntervalNs;
            for (final Member member : members) {
                if (member.isAlive()) {
                    // written again for each member: a send may reuse the frame buffer
                    final MutableDirectBuffer frame = sender.frameBuffer(HeaderFlyweight.HEADER_LENGTH);
                    header.wrap(frame, 0, HeaderFlyweight.HEADER_LENGTH);
                    header.headerDefaults(MembershipMessages.HEARTBEAT).senderId(REGISTRY_ID).epoch(epoch);
                    sender.sendToEndpoint(member.endpoint(), HeaderFlyweight.HEADER_LENGTH);
                    work++;
                    if (exitProbe != null) {
                        probeIfSilent(member, nowNs);
                    }
                }
            }
        }
        return work;
    }

    /**
     * Probes {@code member} if it has been silent for {@link #PROBE_AFTER_SILENT_INTERVALS} heartbeat intervals (again
     * at each heartbeat while it stays silent), or closes its probe if it was heard since. Not the host of this
     * registry: its port is this process's own.
     */
    private void probeIfSilent(final Member member, final long nowNs) {
        final int id = member.id();
        final long silenceNs = detector.isWatched(id) ? detector.silenceNs(id, nowNs) : 0;
        if (silenceNs >= probeAfterNs && silenceNs < PROBE_UNTIL_SILENT_NS
            && !member.endpoint().equals(selfEndpoint)) {
            exitProbe.probe(id, member.endpoint());
        } else if (exitProbe.isProbing(id)) {
            exitProbe.forget(id);
        }
    }

    /**
     * A probe found member {@code id}'s port closed: no process holds it, so the member's process exited (or was
     * killed), which a stopped process never looks like: it is declared dead now, as a launcher's exit report would.
     */
    private void onPortClosed(final int id) {
        if (!isAlive(id)) {
            return;
        }
        final Member member = members.get(id);
        LOG.log(System.Logger.Level.WARNING, "node " + id + " (site " + member.site() + ", " + member.endpoint()
            + ") is declared dead: silent for more than " + TimeUnit.NANOSECONDS.toMillis(probeAfterNs) + " ms, and "
            + "its host answers that no process holds its UDP port (ICMP port unreachable): its process exited or "
            + "was killed");
        deathsFoundByProbe++;
        detector.remove(id);
        changeState(id, MemberState.DEAD);
    }

    /** Members declared dead because a probe found their port closed (no launcher reported them); any thread. */
    public long deathsFoundByProbe() {
        return deathsFoundByProbe;
    }

    /** Whether member {@code id} is being probed (it is silent); for tests. */
    boolean exitProbeOpen(final int id) {
        return exitProbe != null && exitProbe.isProbing(id);
    }

    /** Closes the sockets of probes still open; the agent has stopped. */
    @Override
    public void close() {
        if (exitProbe != null) {
            exitProbe.close();
        }
    }

    /**
     * Whether {@code endpoint} is {@code host:port} with a port in [1, 65535] and a host of letters, digits,
     * dots and dashes: anything else (say, Aeron channel syntax) must not reach a channel string.
     */
    static boolean isHostPort(final String endpoint) {
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1 || endpoint.length() - colon > 6) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            final char c = endpoint.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '.' || c == '-')) {
                return false;
            }
        }
        int port = 0;
        for (int i = colon + 1; i < endpoint.length(); i++) {
            final char c = endpoint.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
            port = port * 10 + (c - '0');
        }
        return port >= 1 && port <= 65535;
    }

    /** The endpoint of member {@code id} (any state). */
    String endpointOf(final int id) {
        return members.get(id).endpoint();
    }

    /** The alive member with the lowest id but {@code exceptId}, or -1 if there is none. */
    int lowestAliveExcept(final int exceptId) {
        for (final Member member : members) {
            if (member.isAlive() && member.id() != exceptId) {
                return member.id();
            }
        }
        return -1;
    }

    /** Whether {@code id} is an alive member. */
    boolean isAlive(final int id) {
        return id >= 0 && id < members.size() && members.get(id).isAlive();
    }

    private void changeState(final int id, final MemberState state) {
        if (exitProbe != null) {
            exitProbe.forget(id);
        }
        final Member member = members.get(id);
        members.set(id, member.withState(state));
        epoch++;
        sender.cut(member.endpoint());
        broadcastList(MemberListFlyweight.NO_ASSIGNED_ID);
    }

    private void broadcastList(final int exceptId) {
        for (final Member member : members) {
            if (member.isAlive() && member.id() != exceptId) {
                sendList(member.endpoint(), MemberListFlyweight.NO_ASSIGNED_ID);
            }
        }
    }

    private void sendList(final String endpoint, final int assignedId) {
        long bound = MemberListFlyweight.MEMBERS_OFFSET;
        for (final Member member : members) {
            bound += MemberListFlyweight.MIN_MEMBER_LENGTH + 3L * (member.site().length() + member.endpoint().length());
        }
        final MutableDirectBuffer frame = sender.frameBuffer(bound);
        list.wrap(frame, 0, frame.capacity());
        list.headerDefaults(MemberListFlyweight.TYPE).senderId(REGISTRY_ID).epoch(epoch);
        list.assignedId(assignedId);
        for (final Member member : members) {
            list.appendMember(member.id(), member.state().code(), member.site(), member.endpoint());
        }
        sender.sendToEndpoint(endpoint, list.frameLength());
    }
}
