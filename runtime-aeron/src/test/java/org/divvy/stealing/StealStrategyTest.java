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

    /** Victims held in deep idle (up to 500 ms): the tests of an awake node show that holding changes nothing awake. */
    private static StealStrategy strategy(final StealPolicy policy, final long seed) {
        return StealStrategy.of(policy, new Random(seed), 1 * MS, 16 * MS, 16 * MS, 1000 * MS, 500 * MS);
    }

    /** Deep pauses up to 200 ms, victims held in deep idle up to {@code holdMaxMs}. */
    private static StealStrategy deepHolding(final StealPolicy policy, final long seed, final long holdMaxMs) {
        return StealStrategy.of(policy, new Random(seed), 1 * MS, 20 * MS, 200 * MS, 1000 * MS, holdMaxMs * MS);
    }

    /**
     * Asks as {@code strategy} allows from {@code fromNs} until {@code toNs} in 1 ms steps, every reply "none" 1 ms
     * after its request; returns the victims asked, in order (only the requests flagged {@code wideArea} if given).
     */
    private List<Integer> idleUntil(final StealStrategy strategy, final Members peers, final long fromNs, final long toNs,
        final Boolean wideArea) {
        final List<Integer> victims = new ArrayList<>();
        for (long now = fromNs; now < toNs; now += MS) {
            answerPending(strategy, now);
            final int before = sent.size();
            strategy.onIdle(now, peers, recorder);
            for (final Sent s : sent.subList(before, sent.size())) {
                pending.add(s);
                if (wideArea == null || wideArea == s.wideArea) {
                    victims.add(s.victim);
                }
            }
        }
        return victims;
    }

    /** Requests {@link #idleUntil} sent and not yet answered. */
    private final List<Sent> pending = new ArrayList<>();

    /** Answers "none" at {@code nowNs} to every request {@link #idleUntil} left pending. */
    private void answerPending(final StealStrategy strategy, final long nowNs) {
        for (final Sent s : pending) {
            strategy.onReply(s.requestId, false, nowNs);
        }
        pending.clear();
    }

    /** How many times the victim changes in {@code victims}. */
    private static int changes(final List<Integer> victims) {
        int changes = 0;
        for (int i = 1; i < victims.size(); i++) {
            changes += victims.get(i).equals(victims.get(i - 1)) ? 0 : 1;
        }
        return changes;
    }

    /** Node 0 of site A among {@code n} members of site A. */
    private static Members oneSite(final int n) {
        final String[] sites = new String[n];
        java.util.Arrays.fill(sites, "A");
        return peers(sites);
    }

    @Test
    void rsInDeepIdleShouldHoldEachVictimTwiceAsLongAsTheLastUpToTheHold() {
        final Members peers = oneSite(64);
        final StealStrategy rs = deepHolding(StealPolicy.RS, 21, 5_000);
        rs.deepIdle(true, 0);
        final List<Integer> victims = idleUntil(rs, peers, 0, 60_000 * MS, null);
        assertTrue(victims.size() > 250, "about 7 requests a second: " + victims.size());
        // holds of 200, 400, 800, 1600, 3200 ms, then 5 s each: about 16 victims in 60 s (a draw may repeat a victim)
        final int changes = changes(victims);
        assertTrue(changes >= 12 && changes <= 17, "a new victim per hold, not per request: " + changes + " changes");
        // the last 40 s: one victim per 5 s hold
        final List<Integer> late = idleUntil(rs, peers, 60_000 * MS, 100_000 * MS, null);
        assertTrue(changes(late) >= 6 && changes(late) <= 8, "8 holds of 5 s in 40 s: " + changes(late) + " changes");
        final long distinct = late.stream().distinct().count();
        assertTrue(distinct >= 6 && distinct <= 9, "drawn uniformly, so mostly different victims: " + distinct);
    }

    @Test
    void leavingDeepIdleShouldDrawAVictimForEveryRequestAgainAtOnce() {
        final Members peers = oneSite(64);
        final StealStrategy rs = deepHolding(StealPolicy.RS, 22, 5_000);
        rs.deepIdle(true, 0);
        idleUntil(rs, peers, 0, 20_000 * MS, null); // holds of 5 s by now
        rs.deepIdle(false, 20_000 * MS); // work found
        final List<Integer> awake = idleUntil(rs, peers, 20_000 * MS, 21_000 * MS, null);
        assertTrue(awake.size() > 40, "awake pauses (<= 20 ms): " + awake.size());
        assertTrue(changes(awake) > awake.size() / 2, "a victim drawn for every request: " + awake);
        // deep again: the hold starts over from one deep pause
        rs.deepIdle(true, 21_000 * MS);
        final List<Integer> deepAgain = idleUntil(rs, peers, 21_000 * MS, 22_500 * MS, null);
        assertTrue(changes(deepAgain) >= 2, "holds of 200, 400, 800 ms again: " + deepAgain);
    }

    @Test
    void wakeShouldEndTheHoldThoughTheNodeIsStillInDeepIdle() {
        final Members peers = oneSite(64);
        final StealStrategy rs = deepHolding(StealPolicy.RS, 23, 60_000);
        rs.deepIdle(true, 0);
        final List<Integer> before = idleUntil(rs, peers, 0, 30_000 * MS, null);
        final int held = before.get(before.size() - 1);
        assertEquals(held, (int)idleUntil(rs, peers, 30_000 * MS, 31_000 * MS, null).get(0), "held for up to 60 s");
        rs.wake(31_000 * MS); // RUN_STARTED
        final List<Integer> after = idleUntil(rs, peers, 31_000 * MS, 32_000 * MS, null);
        assertTrue(changes(after) >= 1, "a run start ends the hold: " + after);
    }

    @Test
    void aHeldVictimThatDiesOrDoesNotAnswerShouldBeReplaced() {
        final Members peers = oneSite(8);
        final StealStrategy rs = deepHolding(StealPolicy.RS, 24, 60_000);
        rs.deepIdle(true, 0);
        final List<Integer> victims = idleUntil(rs, peers, 0, 20_000 * MS, null);
        final int held = victims.get(victims.size() - 1);
        peers.update(new Member(held, "A", "127.0.0.1:" + (40000 + held), MemberState.DEAD));
        rs.onVictimLost(held, 20_000 * MS);
        final List<Integer> next = idleUntil(rs, peers, 20_000 * MS, 21_000 * MS, null);
        assertTrue(!next.isEmpty() && !next.contains(held), "the dead victim is not asked: " + next);
        final int second = next.get(next.size() - 1);
        assertEquals(1, next.stream().distinct().count(), "and the new one is held: " + next);
        // the new victim stops answering: once its request times out, another is drawn
        long at = 21_000 * MS;
        answerPending(rs, at);
        while (rs.onIdle(at, peers, recorder) == 0) {
            at += MS;
        }
        assertEquals(second, sent.get(sent.size() - 1).victim);
        assertEquals(1, rs.expire(at + 1001 * MS));
        final List<Integer> afterTimeout = idleUntil(rs, peers, at + 1001 * MS, at + 3000 * MS, null);
        assertTrue(!afterTimeout.isEmpty() && afterTimeout.get(afterTimeout.size() - 1) != second,
            "a victim that did not answer is not held: " + afterTimeout);
    }

    @Test
    void crsInDeepIdleShouldHoldItsSiteVictimAndItsWideAreaVictimApart() {
        final String[] sites = new String[32];
        for (int i = 0; i < sites.length; i++) {
            sites[i] = i < 8 ? "A" : i < 16 ? "B" : i < 24 ? "C" : "D";
        }
        final Members peers = peers(sites);
        for (final StealPolicy policy : new StealPolicy[] {StealPolicy.CRS, StealPolicy.LCRS}) {
            sent.clear();
            final StealStrategy crs = deepHolding(policy, 25, 5_000);
            crs.deepIdle(true, 0);
            final List<Integer> wide = idleUntil(crs, peers, 0, 60_000 * MS, true);
            sent.clear();
            crs.deepIdle(false, 60_000 * MS);
            crs.deepIdle(true, 60_000 * MS);
            final List<Integer> site = idleUntil(crs, peers, 60_000 * MS, 120_000 * MS, false);
            assertTrue(wide.stream().allMatch(v -> v >= 8), policy + ": wide-area victims in other sites: " + wide);
            assertTrue(site.stream().allMatch(v -> v >= 1 && v < 8), policy + ": site victims in site A: " + site);
            assertTrue(wide.size() > 250 && site.size() > 250, policy + ": " + wide.size() + " and " + site.size() + " requests");
            // 7 site members to draw from: a draw repeats the held victim 1 time in 7
            assertTrue(changes(wide) >= 12 && changes(wide) <= 17, policy + ": wide-area victim changes " + changes(wide));
            assertTrue(changes(site) >= 9 && changes(site) <= 17, policy + ": site victim changes " + changes(site));
        }
    }

    @Test
    void withoutAHoldDeepIdleShouldDrawAVictimForEveryRequest() {
        final Members peers = oneSite(64);
        final StealStrategy rs = deepHolding(StealPolicy.RS, 26, 0);
        rs.deepIdle(true, 0);
        final List<Integer> victims = idleUntil(rs, peers, 0, 10_000 * MS, null);
        assertTrue(changes(victims) > victims.size() * 9 / 10, "uniform over 63, every request: " + changes(victims) + " of " + victims.size());
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
