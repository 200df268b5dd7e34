package org.divvy.stealing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.divvy.StealPolicy;
import org.divvy.membership.Member;
import org.divvy.membership.Members;
import org.divvy.membership.MemberState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The policies as pure objects: seeded random, a fake clock, a recording sender. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StealStrategyTest {
    private static final long MS = 1_000_000L;

    private record Sent(int victim, long requestId, boolean wideArea) {
    }

    private final List<Sent> sent = new ArrayList<>();
    private final StealSender recorder = (victim, id, wa) -> sent.add(new Sent(victim, id, wa));

    /** Node 0 of site A among members 0..n-1; {@code sites[i]} is member i's site. */
    private static Members peers(final String... sites) {
        final Members peers = new Members(sites[0]);
        peers.selfId(0);
        for (int i = 0; i < sites.length; i++) {
            peers.update(new Member(i, sites[i], "127.0.0.1:" + (40000 + i), MemberState.ALIVE));
        }
        return peers;
    }

    private static StealStrategy strategy(final StealPolicy policy, final long seed) {
        return StealStrategy.of(policy, new Random(seed), 1 * MS, 16 * MS, 16 * MS, 1000 * MS);
    }

    @Test
    void rsShouldChooseUniformlyAmongAllOtherMembers() {
        final Members peers = peers("A", "A", "B", "B");
        final StealStrategy rs = strategy(StealPolicy.RS, 42);
        final int[] hits = new int[4];
        long now = 0;
        for (int i = 0; i < 3000; i++) {
            assertEquals(1, rs.onIdle(now, peers, recorder));
            final Sent s = sent.get(sent.size() - 1);
            hits[s.victim]++;
            assertEquals(s.victim >= 2, s.wideArea, "RS flags requests to another site as wide-area");
            assertEquals(s.victim >= 2 ? RequestKind.WIDE_AREA : RequestKind.SITE, rs.onReply(s.requestId, true, now));
            now += MS;
        }
        assertEquals(0, hits[0], "never itself");
        for (int v = 1; v < 4; v++) {
            assertTrue(hits[v] > 850 && hits[v] < 1150, "uniform over the 3 others: " + java.util.Arrays.toString(hits));
        }
    }

    @Test
    void rsShouldKeepOneSynchronousRequestOutstandingAndBackOffAfterFailures() {
        final Members peers = peers("A", "A", "A");
        final StealStrategy rs = strategy(StealPolicy.RS, 1);
        assertEquals(1, rs.onIdle(0, peers, recorder));
        assertEquals(0, rs.onIdle(0, peers, recorder), "one request outstanding");
        assertEquals(0, rs.onIdle(5 * MS, peers, recorder));
        assertEquals(RequestKind.SITE, rs.onReply(sent.get(0).requestId, false, 5 * MS));
        // after the first failure it waits between 0.5 and 1 ms
        assertEquals(0, rs.onIdle(5 * MS + MS / 2 - 1, peers, recorder));
        assertEquals(1, rs.onIdle(6 * MS, peers, recorder));
        // pauses double up to the cap (16 ms) and no further
        long now = 6 * MS;
        long lastPause = 0;
        for (int i = 0; i < 10; i++) {
            rs.onReply(sent.get(sent.size() - 1).requestId, false, now);
            final long from = now;
            while (rs.onIdle(now, peers, recorder) == 0) {
                now += MS / 10;
            }
            lastPause = now - from;
        }
        assertTrue(lastPause >= 8 * MS && lastPause <= 16 * MS + MS / 10, "capped pause " + lastPause);
        // a success resets the pause
        rs.onReply(sent.get(sent.size() - 1).requestId, true, now);
        assertEquals(1, rs.onIdle(now, peers, recorder));
    }

    @Test
    void wakeShouldLetADeepIdleNodeAskAtOnceAndResetItsBackoff() {
        final Members peers = peers("A", "A", "A");
        final StealStrategy rs = StealStrategy.of(StealPolicy.RS, new Random(3), 1 * MS, 16 * MS, 1000 * MS, 1000 * MS);
        rs.deepIdle(true, 0);
        long now = 0;
        assertEquals(1, rs.onIdle(now, peers, recorder));
        for (int i = 0; i < 12; i++) { // fail until the pause is at the deep cap (1 s)
            rs.onReply(sent.get(sent.size() - 1).requestId, false, now);
            while (rs.onIdle(now, peers, recorder) == 0) {
                now += MS;
            }
        }
        rs.onReply(sent.get(sent.size() - 1).requestId, false, now);
        assertEquals(0, rs.onIdle(now + MS, peers, recorder), "paused at the deep cap");
        rs.wake(now + MS); // a RUN_STARTED arrived; the node is still deep this cycle
        assertTrue(rs.isDeepIdle());
        assertEquals(1, rs.onIdle(now + MS, peers, recorder), "asks at once");
        rs.onReply(sent.get(sent.size() - 1).requestId, false, now + 2 * MS);
        assertEquals(0, rs.onIdle(now + 2 * MS + MS / 2 - 1, peers, recorder));
        assertEquals(1, rs.onIdle(now + 3 * MS, peers, recorder), "backoff restarted from the minimum (0.5-1 ms)");
    }

    @Test
    void shouldExcludeDeadMembersAndTreatTheirRequestsAsFailed() {
        final Members peers = peers("A", "A", "A");
        final StealStrategy rs = strategy(StealPolicy.RS, 7);
        peers.update(new Member(1, "A", "127.0.0.1:40001", MemberState.DEAD));
        for (int i = 0; i < 50; i++) {
            rs.onIdle(i * 100 * MS, peers, recorder);
            final Sent s = sent.get(sent.size() - 1);
            assertEquals(2, s.victim);
            rs.onReply(s.requestId, true, i * 100 * MS);
        }
        rs.onIdle(10_000 * MS, peers, recorder);
        assertTrue(rs.hasSyncOutstanding());
        rs.onVictimLost(2, 10_000 * MS);
        assertFalse(rs.hasSyncOutstanding(), "a request to a lost victim failed");
        peers.update(new Member(2, "A", "127.0.0.1:40002", MemberState.LEFT));
        final int before = sent.size();
        assertEquals(0, rs.onIdle(20_000 * MS, peers, recorder), "nobody left to ask");
        assertEquals(before, sent.size());
    }

    @Test
    void crsShouldSendOneWideAreaRequestAndStealSynchronouslyInsideTheSite() {
        final Members peers = peers("A", "A", "A", "B", "B", "C");
        final StealStrategy crs = strategy(StealPolicy.CRS, 3);
        assertEquals(2, crs.onIdle(0, peers, recorder));
        final Sent wa = sent.get(0);
        final Sent local = sent.get(1);
        assertTrue(wa.wideArea && wa.victim >= 3, "wide-area to another site: " + wa);
        assertTrue(!local.wideArea && (local.victim == 1 || local.victim == 2), "synchronous inside the site: " + local);
        assertTrue(crs.hasWideAreaOutstanding());

        // local steals go on while the wide-area request is outstanding; never a second wide-area one
        long now = 0;
        for (int i = 0; i < 200; i++) {
            now += 50 * MS;
            final Sent last = sent.get(sent.size() - 1);
            assertEquals(RequestKind.SITE, crs.onReply(last.requestId, false, now));
            assertEquals(1, crs.onIdle(now + 20 * MS, peers, recorder), "after the (at most 16 ms) pause");
            final Sent next = sent.get(sent.size() - 1);
            assertFalse(next.wideArea);
            assertTrue(next.victim == 1 || next.victim == 2);
            crs.expire(0); // the wide-area request is not timed out by a clock that has not moved for it
        }
        // the late wide-area reply still counts as the wide-area request (its job is queued by the thief)
        assertEquals(RequestKind.WIDE_AREA, crs.onReply(wa.requestId, true, now));
        assertFalse(crs.hasWideAreaOutstanding());
        // a reply to nothing outstanding is late, not an error
        assertEquals(RequestKind.LATE, crs.onReply(wa.requestId, true, now));
    }

    @Test
    void crsShouldChooseWideAreaVictimsUniformlyOverAllRemoteNodes() {
        final Members peers = peers("A", "B", "B", "C");
        final StealStrategy crs = strategy(StealPolicy.CRS, 11);
        final int[] hits = new int[4];
        long now = 0;
        for (int i = 0; i < 3000; i++) {
            crs.onIdle(now, peers, recorder);
            final Sent s = sent.get(sent.size() - 1);
            assertTrue(s.wideArea, "no other node in site A: only wide-area requests");
            hits[s.victim]++;
            crs.onReply(s.requestId, true, now);
            now += MS;
        }
        assertEquals(0, hits[0]);
        for (int v = 1; v < 4; v++) {
            assertTrue(hits[v] > 850 && hits[v] < 1150, "uniform over nodes, not sites: " + java.util.Arrays.toString(hits));
        }
    }

    @Test
    void lcrsShouldAskTheRemoteNodeThatLastGaveAJobAgain() {
        final Members peers = peers("A", "A", "B", "B", "C", "C");
        final StealStrategy lcrs = strategy(StealPolicy.LCRS, 13);
        long now = 0;
        assertEquals(2, lcrs.onIdle(now, peers, recorder));
        final Sent first = sent.get(0);
        assertTrue(first.wideArea && first.victim >= 2, "wide-area to another site: " + first);
        now += 20 * MS;
        assertEquals(RequestKind.WIDE_AREA, lcrs.onReply(first.requestId, true, now));
        for (int i = 0; i < 20; i++) {
            lcrs.onIdle(now, peers, recorder);
            final Sent wa = sent.stream().filter(Sent::wideArea).reduce((a, b) -> b).orElseThrow();
            assertEquals(first.victim, wa.victim, "the node that gave a job is asked again");
            now += 20 * MS;
            lcrs.onReply(wa.requestId, true, now);
        }
        // its "none" ends that: the next wide-area victim is another remote node
        final Sent last = sent.stream().filter(Sent::wideArea).reduce((a, b) -> b).orElseThrow();
        lcrs.onIdle(now, peers, recorder);
        final Sent asked = sent.stream().filter(Sent::wideArea).reduce((a, b) -> b).orElseThrow();
        now += 20 * MS;
        lcrs.onReply(asked.requestId, false, now);
        assertEquals(first.victim, asked.victim);
        lcrs.onIdle(now + 2 * MS, peers, recorder);
        final Sent next = sent.stream().filter(Sent::wideArea).reduce((a, b) -> b).orElseThrow();
        assertTrue(next.requestId > last.requestId && next.victim != first.victim && next.victim >= 2, "another remote node: " + next);
    }

    @Test
    void lcrsShouldSkipARemoteNodeForTwoOfItsRoundTripsAfterItAnsweredNone() {
        final Members peers = peers("A", "B", "C");
        final int[] firstHits = new int[3];
        for (int seed = 0; seed < 400; seed++) {
            final StealStrategy lcrs = StealStrategy.of(StealPolicy.LCRS, new Random(new java.util.SplittableRandom(seed).nextLong()), 1 * MS, 1 * MS, 1 * MS, 1000 * MS);
            assertEquals(1, lcrs.onIdle(0, peers, recorder));
            final Sent first = sent.get(sent.size() - 1);
            firstHits[first.victim]++;
            final int other = first.victim == 1 ? 2 : 1;
            lcrs.onReply(first.requestId, false, 10 * MS); // "none" after a 10 ms round trip: empty until 30 ms
            assertEquals(1, lcrs.onIdle(11 * MS, peers, recorder));
            final Sent second = sent.get(sent.size() - 1);
            assertEquals(other, second.victim, "the node that just answered none is skipped");
            lcrs.onReply(second.requestId, false, 21 * MS); // empty until 41 ms
            assertEquals(1, lcrs.onIdle(31 * MS, peers, recorder));
            final Sent third = sent.get(sent.size() - 1);
            assertEquals(first.victim, third.victim, "two round trips after its none it may be asked again; the other may not");
            lcrs.onReply(third.requestId, true, 41 * MS);
        }
        assertTrue(firstHits[1] > 150 && firstHits[2] > 150, "uniform with nothing known: " + java.util.Arrays.toString(firstHits));
    }

    @Test
    void lcrsShouldForgetALostGiver() {
        final Members peers = peers("A", "B", "C");
        final StealStrategy lcrs = strategy(StealPolicy.LCRS, 19);
        lcrs.onIdle(0, peers, recorder);
        final Sent first = sent.get(0);
        lcrs.onReply(first.requestId, true, 10 * MS);
        peers.update(new Member(first.victim, first.victim == 1 ? "B" : "C", "127.0.0.1:" + (40000 + first.victim), MemberState.DEAD));
        lcrs.onVictimLost(first.victim, 10 * MS);
        for (int i = 0; i < 20; i++) {
            lcrs.onIdle(10 * MS + i * 100 * MS, peers, recorder);
            final Sent s = sent.get(sent.size() - 1);
            assertEquals(first.victim == 1 ? 2 : 1, s.victim, "the dead giver is never asked");
            lcrs.onReply(s.requestId, i % 2 == 0, 10 * MS + i * 100 * MS + MS);
        }
    }

    /** A giver that stops answering (alive, but its replies never come) is not asked again and again. */
    @Test
    void lcrsShouldStopAskingAGiverThatStoppedAnswering() {
        final Members peers = peers("A", "B", "C");
        final StealStrategy lcrs = strategy(StealPolicy.LCRS, 19);
        lcrs.onIdle(0, peers, recorder);
        final int giver = sent.get(0).victim;
        lcrs.onReply(sent.get(0).requestId, true, 10 * MS);
        long now = 10 * MS;
        for (int round = 0; round < 20; round++) {
            now += 100 * MS;
            assertEquals(1, lcrs.onIdle(now, peers, recorder), "a request each round");
            if (sent.get(sent.size() - 1).victim != giver) {
                return; // another remote node was asked
            }
            now += 1001 * MS;
            assertEquals(1, lcrs.expire(now), "the giver does not answer");
        }
        fail("a giver that stopped answering was asked every time");
    }

    @Test
    void crsWithOneSiteShouldBeRsInsideTheSite() {
        final Members peers = peers("A", "A", "A");
        final StealStrategy crs = strategy(StealPolicy.CRS, 5);
        assertEquals(1, crs.onIdle(0, peers, recorder));
        assertFalse(sent.get(0).wideArea);
        assertFalse(crs.hasWideAreaOutstanding());
        assertEquals(0, crs.onIdle(0, peers, recorder));
    }

    @Test
    void shouldTimeOutUnansweredRequests() {
        final Members peers = peers("A", "A");
        final StealStrategy rs = strategy(StealPolicy.RS, 9);
        rs.onIdle(0, peers, recorder);
        assertEquals(0, rs.expire(999 * MS));
        assertEquals(1, rs.expire(1001 * MS));
        assertFalse(rs.hasSyncOutstanding());
        assertEquals(RequestKind.LATE, rs.onReply(sent.get(0).requestId, true, 1002 * MS));
    }

    @Test
    void shouldPaceARequestTheSenderCouldNotTakeLikeAFailedSteal() {
        final Members peers = peers("A", "A");
        final StealStrategy rs = strategy(StealPolicy.RS, 9);
        assertEquals(0, rs.onIdle(0, peers, (v, id, wa) -> false)); // the victim's queue is full
        assertFalse(rs.hasSyncOutstanding());
        assertEquals(0, rs.onIdle(0, peers, recorder), "not again at once: it would spin on a full queue");
        assertEquals(1, rs.onIdle(1 * MS, peers, recorder), "again after the first backoff (at most 1 ms)");
    }
}
