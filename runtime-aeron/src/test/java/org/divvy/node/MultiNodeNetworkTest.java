package org.divvy.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.TestCluster;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.MembershipMessages;
import org.divvy.membership.StandaloneRegistry;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.security.AuthenticationCounters;
import org.divvy.security.FrameAuthenticator;
import org.divvy.security.TestAuthenticators;
import org.divvy.stealing.StealReplyFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.divvy.testing.Await;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.TrafficCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several nodes' network halves in one JVM over real UDP on 127.0.0.1, one shared driver, each agent
 * stepped by the test thread with the real clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiNodeNetworkTest {
    private static final long HEARTBEAT_INTERVAL_MS = 50;
    /** With 50 ms heartbeats, a silent node is suspected about 1 s after its last one (0.05 + 0.4 + 5.2 x 0.1 s). */
    private static final long ACCEPTABLE_PAUSE_MS = 400;

    @RegisterExtension
    final TestCluster cluster = new TestCluster();
    /** The nodes this test started, in order. */
    private final List<SteppedNode> nodes = new ArrayList<>();

    private SteppedNode node(final String site, final String join, final long joinTimeoutMs) {
        final NodeConfig config = cluster.nodeSettings().site(site).join(join).heartbeatIntervalMs(HEARTBEAT_INTERVAL_MS)
            .acceptableHeartbeatPauseMs(ACCEPTABLE_PAUSE_MS).joinTimeoutMs(joinTimeoutMs).build();
        final FrameCounters counters = new FrameCounters();
        final AeronTransport transport = new AeronTransport(config, new FrameValidator(counters),
            new TrafficCounters(), TestAuthenticators.member(), Throwable::printStackTrace);
        final SteppedNode node = cluster.add(new SteppedNode(config, transport, counters, new SystemNanoClock(), nodes.size()));
        nodes.add(node);
        return node;
    }

    private SteppedNode node(final String site, final String join) {
        return node(site, join, 10_000);
    }

    /** Steps the nodes until {@code condition} holds; a timeout says what each node saw. */
    private static void await(final String what, final long timeoutMs, final BooleanSupplier condition, final List<SteppedNode> stepped) {
        Await.within(Duration.ofMillis(timeoutMs)).stepping(() -> stepOnce(stepped)).until(condition, () -> {
            final StringBuilder log = new StringBuilder(what);
            for (final SteppedNode node : stepped) {
                log.append("\n node ").append(node.selfId()).append(' ').append(node.network.members().list())
                    .append(' ').append(node.counters).append(' ').append(node.network.traffic());
            }
            return log.toString();
        });
    }

    private static void stepOnce(final List<SteppedNode> stepped) {
        int work = 0;
        for (final SteppedNode node : stepped) {
            work += node.doWork();
        }
        if (work == 0) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** Steps the nodes for a while without a condition. */
    private static void stepFor(final long ms, final List<SteppedNode> stepped) {
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (System.nanoTime() - until < 0) {
            stepOnce(stepped);
        }
    }

    private List<SteppedNode> startCluster(final int count) {
        final SteppedNode first = node("site-a", null);
        // The first node joins itself first, so ids follow the start order.
        await("the first node to join itself", 10_000, () -> first.selfId() == 0, List.of(first));
        for (int i = 1; i < count; i++) {
            final SteppedNode joiner = node(i % 2 == 0 ? "site-a" : "site-b", first.network.endpoint());
            final int expectedId = i;
            await("node " + i + " to join", 10_000, () -> joiner.selfId() == expectedId, List.copyOf(nodes));
        }
        final List<SteppedNode> all = List.copyOf(nodes);
        await("all nodes to join and see " + count + " alive members", 15_000, () -> all.stream().allMatch(
            n -> n.selfId() >= 0 && n.network.members().aliveCount() == count), all);
        return all;
    }

    @Test
    void shouldGiveAllNodesTheSameMemberListWithSiteLabels() {
        final List<SteppedNode> all = startCluster(4);
        final List<Member> expected = all.get(0).network.members().list();
        for (final SteppedNode node : all) {
            assertEquals(expected, node.network.members().list());
        }
        assertEquals(List.of("site-a", "site-b", "site-a", "site-b"), expected.stream().map(Member::site).toList());
        assertEquals(List.of(0, 1, 2, 3), all.stream().map(SteppedNode::selfId).sorted().toList());
        for (final Member member : expected) {
            assertTrue(member.endpoint().startsWith("127.0.0.1:"), member.endpoint());
            assertEquals(all.get(member.id()).network.endpoint(), member.endpoint());
        }
    }

    @Test
    void shouldAnswerStealRequestsBetweenOutOfWorkNodesInARun() {
        final List<SteppedNode> all = startCluster(3);
        // A run with nothing in it: every node is out of work in a run it knows of, so each asks the others, and
        // each request is answered "none".
        all.get(0).network.announceRun();
        await("steal requests and replies everywhere", 5000, () -> all.stream().allMatch(n ->
            n.network.traffic().messagesReceived(StealRequestFlyweight.TYPE) > 2 &&
            n.network.traffic().messagesReceived(StealReplyFlyweight.TYPE) > 2), all);
        for (final SteppedNode node : all) {
            assertEquals(0, node.network.statistics().remoteSteals());
            // nothing malformed between well-behaved nodes (a node the registry declared dead under load would
            // legitimately have its frames cut, so only these reasons are checked)
            assertEquals(0, node.counters.truncated.get() + node.counters.badVersion.get() + node.counters.unknownType.get() +
                node.counters.badLength.get() + node.counters.malformed.get() + node.counters.handlerFailed.get(),
                node.counters.toString());
        }
    }

    @Test
    void shouldTellOthersACrashedNodeIsDeadOnceSuspected() {
        final List<SteppedNode> all = startCluster(4);
        final SteppedNode crashed = all.get(3);
        final int crashedId = crashed.selfId();
        final long crashNs = System.nanoTime();
        crashed.pause();
        crashed.network.crash();
        final List<SteppedNode> survivors = all.subList(0, 3);
        await("survivors to see node " + crashedId + " DEAD", 10_000, () -> survivors.stream()
            .allMatch(n -> n.network.members().member(crashedId).state() == MemberState.DEAD), survivors);
        final long detectedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - crashNs);
        assertTrue(detectedMs >= ACCEPTABLE_PAUSE_MS, "declared dead after " + detectedMs + " ms, within the acceptable pause");
        for (final SteppedNode node : survivors) {
            assertEquals(3, node.network.lifecycle().aliveMembers());
            assertEquals(null, node.network.members().aliveEndpoint(crashedId), "nothing is sent to it any more");
        }
    }

    @Test
    void shouldDropAllFramesFromANodeDeclaredDead() {
        final List<SteppedNode> all = startCluster(3);
        final SteppedNode paused = all.get(2);
        final int pausedId = paused.selfId();
        final SteppedNode victim = all.get(1);
        final List<SteppedNode> others = all.subList(0, 2);
        paused.pause();
        // To the others it is silent, so the registry declares it dead.
        await("node " + pausedId + " declared DEAD", 10_000,
            () -> victim.network.members().member(pausedId).state() == MemberState.DEAD, others);

        final long before = victim.counters.fromDeadPeer.get() + all.get(0).counters.fromDeadPeer.get();
        final long requestsBefore = victim.network.traffic().messagesReceived(StealRequestFlyweight.TYPE);
        // It wakes up, still thinking it is alive, and heartbeats and asks for work: every frame is cut.
        paused.resume();
        await("frames from the dead node counted and dropped", 10_000,
            () -> victim.counters.fromDeadPeer.get() + all.get(0).counters.fromDeadPeer.get() > before, all);
        // The registry answers the woken node's heartbeat with the list that shows it dead: it says it was paused and removed.
        await("the dead node reports that it was removed", 10_000,
            () -> paused.network.lifecycle().registryLostOrNull() != null, all);
        final String lost = paused.network.lifecycle().registryLostOrNull();
        assertTrue(lost.startsWith("this node was paused for ") && lost.contains(" and was removed from the run by the registry"),
            lost);
        stepFor(200, others);
        assertEquals(0, victim.counters.fromUnknownSender.get());
        assertTrue(victim.network.traffic().messagesReceived(StealRequestFlyweight.TYPE) >= requestsBefore);
    }

    @Test
    void shouldMarkGracefulLeaverLeftEverywhere() {
        final List<SteppedNode> all = startCluster(3);
        final SteppedNode leaver = all.get(1);
        final int leaverId = leaver.selfId();
        leaver.network.requestLeave();
        await("leave sent", 5000, leaver.network::hasLeft, all);
        final List<SteppedNode> stayers = List.of(all.get(0), all.get(2));
        await("others see LEFT", 5000, () -> stayers.stream()
            .allMatch(n -> n.network.members().member(leaverId).state() == MemberState.LEFT), all);
        stepFor(ACCEPTABLE_PAUSE_MS + 1000, stayers);
        for (final SteppedNode node : stayers) {
            assertEquals(MemberState.LEFT, node.network.members().member(leaverId).state(), "a leaver is never declared dead");
        }
        assertEquals(1, all.get(0).network.traffic().messagesReceived(MembershipMessages.LEAVE));
    }

    @Test
    void shouldNotHearAProcessWithoutTheSecret() {
        final List<SteppedNode> all = startCluster(2);
        final SteppedNode target = all.get(1);
        final AuthenticationCounters auth = target.network.authenticationCounters();
        final long droppedBefore = target.counters.totalDropped();
        final int forged = floodWithGarbageAndForgedRequest(TestAuthenticators.with(TestAuthenticators.OTHER_SECRET),
            target, all, () -> auth.totalDropped());
        assertEquals(forged, auth.totalDropped(), auth.toString());
        assertEquals(droppedBefore, target.counters.totalDropped(), "nothing unauthentic reaches the validator: " +
            target.counters);
        assertTargetStillWorks(target, all);
    }

    @Test
    void shouldNotHearFramesOfTheJoinKeyOrAnotherRun() {
        // The secret, but not the run: frames under the join key (it never joined) or another run's key.
        final List<SteppedNode> all = startCluster(2);
        final SteppedNode target = all.get(1);
        final AuthenticationCounters auth = target.network.authenticationCounters();
        // Under the join key only the handshake's types are heard, and then checked like any frame (the
        // random frames of those types are malformed): an authenticator signs its handshake types with it.
        final int otherRunFrames = floodWithGarbageAndForgedRequest(TestAuthenticators.inRun(12345), target, all,
            () -> auth.wrongKey.get() + target.counters.totalDropped());
        final int joinKeyFrames = floodWithGarbageAndForgedRequest(TestAuthenticators.member(), target, all,
            () -> auth.wrongKey.get() + target.counters.totalDropped());
        assertEquals(otherRunFrames + joinKeyFrames, auth.wrongKey.get() + target.counters.totalDropped(),
            auth + " " + target.counters);
        assertTrue(target.counters.totalDropped() < 10, target.counters.toString());
        assertEquals(0, target.counters.fromUnknownSender.get(), "the forged STEAL_REQUEST is not heard");
        assertTargetStillWorks(target, all);
    }

    @Test
    void shouldCountGarbageFromAMemberAndKeepWorking() {
        // A member gone wrong: it holds the secret and the run key, so its garbage reaches the validator.
        final List<SteppedNode> all = startCluster(2);
        final SteppedNode target = all.get(1);
        final long droppedBefore = target.counters.totalDropped();
        final int sent = floodWithGarbageAndForgedRequest(TestAuthenticators.inRun(target.network.runKeyId()), target,
            all, () -> target.counters.totalDropped() - droppedBefore);
        assertEquals(sent, target.counters.totalDropped() - droppedBefore, target.counters.toString());
        assertEquals(1, target.counters.fromUnknownSender.get());
        assertEquals(0, target.network.authenticationCounters().totalDropped());
        assertTargetStillWorks(target, all);
    }

    /**
     * Sends 100 random frames and one well-formed STEAL_REQUEST from sender id 42 (no member) to the target
     * through a transport of its own signing with {@code authenticator}; steps until {@code counted} reaches
     * what was sent (or 10 s).
     *
     * @return how many frames left the attacker (frames below the header length never do).
     */
    private int floodWithGarbageAndForgedRequest(final FrameAuthenticator authenticator, final SteppedNode target,
        final List<SteppedNode> all, final java.util.function.LongSupplier counted) {
        final FrameCounters attackerCounters = new FrameCounters();
        try (AeronTransport attacker = new AeronTransport(cluster.driverSettings().build(), new FrameValidator(attackerCounters),
            new TrafficCounters(), authenticator, Throwable::printStackTrace)) {
            final int link = attacker.linkTo(target.network.endpoint());
            final Random random = new Random(11);
            int sent = 0;
            for (int i = 0; i < 100; i++) {
                final byte[] frame = new byte[1 + random.nextInt(60)];
                random.nextBytes(frame);
                sent += attacker.send(link, new UnsafeBuffer(frame), 0, frame.length) ? 1 : 0;
            }
            final StealRequestFlyweight forged = new StealRequestFlyweight();
            final UnsafeBuffer forgedBuffer = new UnsafeBuffer(new byte[StealRequestFlyweight.FRAME_LENGTH]);
            forged.wrap(forgedBuffer, 0, forgedBuffer.capacity());
            forged.headerDefaults(StealRequestFlyweight.TYPE).senderId(42);
            forged.requestId(1).wideArea(false);
            assertTrue(attacker.send(link, forgedBuffer, 0, forgedBuffer.capacity()));
            sent++;
            final long before = counted.getAsLong();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (counted.getAsLong() - before < sent && System.nanoTime() - deadlineNs < 0) {
                attacker.doDriverWork();
                attacker.doOutboundWork(64);
                stepOnce(all);
            }
            return sent;
        }
    }

    private void assertTargetStillWorks(final SteppedNode target, final List<SteppedNode> all) {
        // a run (with nothing in it) on another node: out of work in it, that node asks the target for work
        (all.get(0) == target ? all.get(1) : all.get(0)).network.announceRun();
        final long requests = target.network.traffic().messagesReceived(StealRequestFlyweight.TYPE);
        await("the target still works", 5000,
            () -> target.network.traffic().messagesReceived(StealRequestFlyweight.TYPE) > requests, all);
        assertTrue(target.errors.isEmpty());
    }

    @Test
    void shouldJoinAStandaloneRegistry() {
        final StandaloneRegistry registry = StandaloneRegistry.launch(
            cluster.driverSettings().heartbeatIntervalMs(HEARTBEAT_INTERVAL_MS).acceptableHeartbeatPauseMs(ACCEPTABLE_PAUSE_MS).build(),
            new SystemNanoClock(), Throwable::printStackTrace);
        try {
            registry.onStart();
            final SteppedNode a = node("x", registry.endpoint());
            final SteppedNode b = node("y", registry.endpoint());
            Await.within(Duration.ofSeconds(10)).stepping(() -> {
                if (registry.doWork() + a.doWork() + b.doWork() == 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }).until(() -> a.network.members().aliveCount() >= 2 && b.network.members().aliveCount() >= 2,
                "both nodes to join the standalone registry");
            assertEquals(a.network.members().list(), b.network.members().list());
            assertEquals(2, registry.registry().members().size());
            assertTrue(a.network.registry() == null && b.network.registry() == null, "nodes host no registry of their own");
        } finally {
            registry.onClose();
        }
    }

    @Test
    void shouldFailJoinToUnreachableBootstrapWithinBoundedTimeAndSayWhatToFix() {
        final SteppedNode lonely = node("a", "127.0.0.1:9", 1000);
        final long startNs = System.nanoTime();
        await("join failure", 5000, () -> lonely.network.lifecycle().joinFailureOrNull() != null, List.of(lonely));
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(tookMs < 3000, "took " + tookMs + " ms");
        assertEquals("no registry answered at 127.0.0.1:9 within 1 s: check --join, that the first node is running, and that this node has the run's cluster secret",
            lonely.network.lifecycle().joinFailureOrNull());
        assertFalse(lonely.network.lifecycle().isJoined());
    }
}
