package org.divvy.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.FrameDispatcher;
import org.divvy.protocol.FrameCounters;
import org.divvy.testing.RecordingFrameSender;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.Members;
import org.divvy.protocol.HeaderFlyweight;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run's announcements reach every live peer even when a peer's outbound queue refuses them for a while (a peer
 * that missed RUN_STARTED would keep its idle agent parked long through the run, and its per-run tables), and a
 * member that joins during a run is told one is active, and every peer is reminded once a second while it is (a
 * peer that dropped an announcement from a sender its member list did not name yet would otherwise not steal in
 * that run). Before, a refused RUN_* or TERMINATE frame was dropped.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RunAnnouncementDeliveryTest {
    private static final int SELF = 1;
    private static final int PEER = 2;
    private static final int BUSY_PEER = 3;
    private static final int JOINER = 4;

    private final Members members = new Members("A");
    private final RecordingFrameSender sender = new RecordingFrameSender();
    private final NodeLifecycle lifecycle = new NodeLifecycle();
    private LifecycleHandler handler;

    @BeforeEach
    void start() {
        members.selfId(SELF);
        for (final int id : new int[] {SELF, PEER, BUSY_PEER}) {
            members.update(alive(id));
        }
        handler = new LifecycleHandler(lifecycle, members, sender, () -> { }, () -> { }, () -> { });
    }

    @Test
    void shouldSendARefusedRunStartAgainUntilThePeerTakesIt() {
        sender.refusing.add(BUSY_PEER);
        lifecycle.requestRunStarted();
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED"), sent());
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED"), sent(), "still refused: nothing more sent");

        sender.refusing.clear(); // its queue drained
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED", BUSY_PEER + " RUN_STARTED"), sent());
        handler.doWork(0);
        assertEquals(2, sent().size(), "sent once");
    }

    @Test
    void shouldOweAPeerOnlyTheLatestRunAnnouncement() {
        sender.refusing.add(BUSY_PEER);
        lifecycle.requestRunStarted();
        handler.doWork(0);
        lifecycle.runEnded();
        handler.doWork(0);
        sender.refusing.clear();
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED", PEER + " RUN_ENDED", BUSY_PEER + " RUN_ENDED"), sent());
    }

    @Test
    void shouldForgetWhatADeadPeerIsOwed() {
        sender.refusing.add(BUSY_PEER);
        lifecycle.requestRunStarted();
        handler.doWork(0);
        members.update(new Member(BUSY_PEER, "A", endpoint(BUSY_PEER), MemberState.DEAD));
        handler.onMemberChanged(members.member(BUSY_PEER));
        sender.refusing.clear();
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED"), sent());
    }

    @Test
    void shouldTellAMemberThatJoinsDuringARunThatARunIsActive() {
        lifecycle.requestRunStarted();
        handler.doWork(0);
        members.update(alive(JOINER));
        handler.onMemberChanged(members.member(JOINER));
        handler.doWork(0);
        assertEquals(List.of(PEER + " RUN_STARTED", BUSY_PEER + " RUN_STARTED", JOINER + " RUN_RESUMED"), sent(),
            "RUN_RESUMED: a run is active, and the joiner keeps what it holds");

        lifecycle.runEnded();
        handler.doWork(0);
        final Member late = alive(5);
        members.update(late);
        handler.onMemberChanged(late);
        handler.doWork(0);
        assertFalse(sent().contains("5 RUN_RESUMED"), "no run is active: nothing to tell a later joiner");
    }

    @Test
    void shouldRemindEveryPeerOnceASecondWhileTheRunIsActive() {
        final long second = LifecycleHandler.RUN_REMINDER_INTERVAL_NS;
        lifecycle.requestRunStarted();
        handler.doWork(0);
        handler.doWork(second - 1);
        assertEquals(List.of(PEER + " RUN_STARTED", BUSY_PEER + " RUN_STARTED"), sent(), "no reminder within a second");

        sender.refusing.add(BUSY_PEER);
        handler.doWork(second);
        assertEquals(List.of(PEER + " RUN_STARTED", BUSY_PEER + " RUN_STARTED", PEER + " RUN_RESUMED"), sent(),
            "a peer that dropped the announcement (its list did not name this node yet) hears it again");
        sender.refusing.clear();
        handler.doWork(second + 1);
        assertEquals(BUSY_PEER + " RUN_RESUMED", sent().get(3), "a refused reminder is owed");

        lifecycle.runEnded();
        handler.doWork(2 * second);
        handler.doWork(5 * second);
        assertEquals(List.of(PEER + " RUN_ENDED", BUSY_PEER + " RUN_ENDED"), sent().subList(4, sent().size()),
            "no reminder once the run ended");
    }

    @Test
    void shouldNotReplaceAnOwedRunStartWithAReminder() {
        sender.refusing.add(BUSY_PEER);
        lifecycle.requestRunStarted();
        handler.doWork(0);
        handler.doWork(LifecycleHandler.RUN_REMINDER_INTERVAL_NS);
        sender.refusing.clear();
        handler.doWork(LifecycleHandler.RUN_REMINDER_INTERVAL_NS + 1);
        assertEquals(List.of(PEER + " RUN_STARTED", PEER + " RUN_RESUMED", BUSY_PEER + " RUN_STARTED"), sent(),
            "RUN_STARTED resets the peer's per-run tables for the new run; RUN_RESUMED would not");
    }

    @Test
    void shouldSendARefusedTerminateAgainAndReportItFlushedOnlyThen() {
        sender.refusing.add(BUSY_PEER);
        lifecycle.requestTerminate(3);
        handler.doWork(0);
        handler.doWork(0);
        assertFalse(lifecycle.isTerminateFlushed(), "a peer was not told yet");
        sender.refusing.clear();
        handler.doWork(0);
        handler.doWork(0);
        assertEquals(List.of(PEER + " TERMINATE", BUSY_PEER + " TERMINATE"), sent());
        assertTrue(lifecycle.isTerminateFlushed());
    }

    /**
     * Result copies keep only what belongs to the run a node works in: every announcement names the run (its master's
     * node id and count), a takeover's id names the same run, and the master's RUN_ENDED ends it.
     */
    @Test
    void shouldNameTheRunInItsAnnouncementsAndKnowWhenItEnds() {
        final int[] ended = new int[1];
        handler.whenRunEnds(() -> ended[0]++);
        lifecycle.requestRunStarted();
        handler.doWork(0);
        final long first = (long)SELF << 32 | 1;
        assertEquals(first, handler.currentRunId());
        assertEquals(first, runIdIn(sender.sent.get(0)), "RUN_STARTED names the run");
        lifecycle.runEnded();
        handler.doWork(0);
        assertEquals(1, ended[0], "its own run ended");
        assertFalse(handler.isCurrentRun(first), "an ended run is no current run: its late copies are not kept");
        assertEquals(LifecycleHandler.NO_RUN, handler.currentRunId());

        final LifecycleHandler peer = new LifecycleHandler(new NodeLifecycle(), members, new RecordingFrameSender(),
            () -> { }, () -> { }, () -> { });
        peer.whenRunEnds(() -> ended[0]++);
        final FrameDispatcher dispatcher = new FrameDispatcher(new FrameCounters(), members, e -> {
            throw new AssertionError(e);
        });
        peer.register(dispatcher);
        deliver(dispatcher, LifecycleHandler.RUN_STARTED, PEER, (long)PEER << 32 | 3);
        assertTrue(peer.isCurrentRun((long)PEER << 32 | 3));
        deliver(dispatcher, LifecycleHandler.RUN_RESUMED, BUSY_PEER, (long)BUSY_PEER << 32 | 1); // a takeover
        assertTrue(peer.isCurrentRun((long)PEER << 32 | 3) && peer.isCurrentRun((long)BUSY_PEER << 32 | 1), "the same run under two masters");
        assertEquals((long)BUSY_PEER << 32 | 1, peer.currentRunId());
        deliver(dispatcher, LifecycleHandler.RUN_STARTED, PEER, (long)PEER << 32 | 4);
        assertFalse(peer.isCurrentRun((long)PEER << 32 | 3) || peer.isCurrentRun((long)BUSY_PEER << 32 | 1), "a new run: the last one's ids are gone");
        deliver(dispatcher, LifecycleHandler.RUN_ENDED, BUSY_PEER, LifecycleHandler.NO_RUN);
        assertEquals(1, ended[0], "not the master of the current run: it goes on");
        deliver(dispatcher, LifecycleHandler.RUN_ENDED, PEER, LifecycleHandler.NO_RUN);
        assertEquals(2, ended[0], "its master ended it");
        assertFalse(peer.isCurrentRun((long)PEER << 32 | 4));
    }

    private static long runIdIn(final byte[] frame) {
        assertEquals(LifecycleHandler.RUN_ANNOUNCEMENT_LENGTH, frame.length);
        return new UnsafeBuffer(frame).getLong(HeaderFlyweight.HEADER_LENGTH, HeaderFlyweight.BYTE_ORDER);
    }

    /** A run announcement of {@code type} from {@code from}, naming {@code runId} unless it is RUN_ENDED. */
    private static void deliver(final FrameDispatcher dispatcher, final int type, final int from, final long runId) {
        final int length = type == LifecycleHandler.RUN_ENDED ? HeaderFlyweight.HEADER_LENGTH : LifecycleHandler.RUN_ANNOUNCEMENT_LENGTH;
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[length]);
        final HeaderFlyweight header = new HeaderFlyweight();
        header.wrap(frame, 0, length);
        header.headerDefaults(type).senderId(from);
        header.frameLength(length);
        if (type != LifecycleHandler.RUN_ENDED) {
            frame.putLong(HeaderFlyweight.HEADER_LENGTH, runId, HeaderFlyweight.BYTE_ORDER);
        }
        dispatcher.onFrame(type, frame, 0, length);
    }

    private static Member alive(final int id) {
        return new Member(id, "A", endpoint(id), MemberState.ALIVE);
    }

    private static String endpoint(final int id) {
        return "127.0.0.1:" + (40_000 + id);
    }

    /** What reached the peers, as "id TYPE", in order. */
    private List<String> sent() {
        final List<String> sent = new ArrayList<>();
        final HeaderFlyweight header = new HeaderFlyweight();
        for (int i = 0; i < sender.sent.size(); i++) {
            final byte[] frame = sender.sent.get(i);
            header.wrap(new UnsafeBuffer(frame), 0, frame.length);
            sent.add(sender.sentTo.get(i) + " " + name(header.type()));
        }
        assertEquals(List.of(), sender.broadcasts, "announcements are sent peer by peer, so a refused one can be sent again");
        return sent;
    }

    private static String name(final int type) {
        switch (type) {
            case LifecycleHandler.RUN_STARTED: return "RUN_STARTED";
            case LifecycleHandler.RUN_RESUMED: return "RUN_RESUMED";
            case LifecycleHandler.RUN_ENDED: return "RUN_ENDED";
            case TerminateFlyweight.TYPE: return "TERMINATE";
            default: return "type " + type;
        }
    }
}
