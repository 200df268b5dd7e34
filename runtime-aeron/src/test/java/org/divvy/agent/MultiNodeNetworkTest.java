package org.divvy.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.membership.Member;
import org.divvy.membership.MemberState;
import org.divvy.membership.MembershipSettings;
import org.divvy.membership.StandaloneRegistry;
import org.divvy.protocol.FrameCounters;
import org.divvy.protocol.FrameValidator;
import org.divvy.protocol.HeaderFlyweight;
import org.divvy.protocol.MessageType;
import org.divvy.protocol.StealRequestFlyweight;
import org.divvy.transport.AeronTransport;
import org.divvy.transport.TestDriver;
import org.divvy.transport.TrafficCounters;
import org.divvy.transport.TransportSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.MediaDriver;

/** Several nodes in one JVM over real UDP on 127.0.0.1, one shared driver, stepped by the test thread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiNodeNetworkTest {
    private static MediaDriver driver;
    private final List<TestNode> nodes = new ArrayList<>();

    @BeforeAll
    static void launchDriver() {
        driver = TestDriver.launch();
    }

    @AfterAll
    static void closeDriver() {
        driver.close();
    }

    @AfterEach
    void closeNodes() {
        nodes.forEach(TestNode::close);
    }

    private TestNode node(final String site, final String joinEndpoint) {
        final TestNode node = new TestNode(driver.aeronDirectoryName(), site, joinEndpoint);
        nodes.add(node);
        return node;
    }

    private static void await(final String what, final long timeoutMs, final BooleanSupplier condition, final List<TestNode> stepped)
        throws InterruptedException {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                final StringBuilder log = new StringBuilder("timed out waiting for " + what);
                for (final TestNode node : stepped) {
                    log.append("\n node ").append(node.selfId()).append(' ').append(node.listener.events)
                        .append(' ').append(node.agent.frameCounters()).append(' ').append(node.agent.traffic());
                }
                fail(log.toString());
            }
            int work = 0;
            for (final TestNode node : stepped) {
                work += node.doWork();
            }
            if (work == 0) {
                Thread.sleep(1);
            }
        }
    }

    /** Steps the nodes for a while without a condition. */
    private static void stepFor(final long ms, final List<TestNode> stepped) throws InterruptedException {
        final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (System.nanoTime() - until < 0) {
            int work = 0;
            for (final TestNode node : stepped) {
                work += node.doWork();
            }
            if (work == 0) {
                Thread.sleep(1);
            }
        }
    }

    private List<TestNode> startCluster(final int count) throws InterruptedException {
        final TestNode first = node("site-a", null);
        // The first node joins itself first, so ids follow the start order.
        await("the first node to join itself", 10_000, () -> first.selfId() == 0, List.of(first));
        for (int i = 1; i < count; i++) {
            final TestNode joiner = node(i % 2 == 0 ? "site-a" : "site-b", first.agent.endpoint());
            final int expectedId = i;
            await("node " + i + " to join", 10_000, () -> joiner.selfId() == expectedId, List.copyOf(nodes));
        }
        final List<TestNode> all = List.copyOf(nodes);
        await("all nodes to join and see " + count + " alive members", 15_000, () -> all.stream().allMatch(
            n -> n.selfId() >= 0 && n.agent.membership().members().stream().filter(Member::isAlive).count() == count), all);
        return all;
    }

    @Test
    void shouldGiveAllNodesTheSameMemberListWithSiteLabels() throws InterruptedException {
        final List<TestNode> all = startCluster(4);
        final List<Member> expected = all.get(0).agent.membership().members();
        for (final TestNode node : all) {
            assertEquals(expected, node.agent.membership().members());
        }
        assertEquals(List.of("site-a", "site-b", "site-a", "site-b"), expected.stream().map(Member::site).toList());
        assertEquals(List.of(0, 1, 2, 3), all.stream().map(TestNode::selfId).sorted().toList());
        for (final Member member : expected) {
            assertTrue(member.endpoint().startsWith("127.0.0.1:"), member.endpoint());
            assertEquals(all.get(member.id()).agent.endpoint(), member.endpoint());
        }
    }

    @Test
    void shouldStealAndReturnResultsThroughProxyAndListener() throws InterruptedException {
        final List<TestNode> all = startCluster(3);
        final TestNode thief = all.get(1);
        final TestNode victim = all.get(2);
        final int thiefId = thief.selfId();
        final int victimId = victim.selfId();

        assertTrue(thief.proxy.requestSteal(victimId, 11, true));
        await("steal request", 5000, () -> victim.listener.has("stealRequest " + thiefId + " 11 true"), all);
        assertTrue(victim.proxy.replyNone(thiefId, 11));
        await("none reply", 5000, () -> thief.listener.has("stealFailed " + victimId + " 11"), all);

        final byte[] args = new byte[5000];
        new Random(1).nextBytes(args);
        assertTrue(victim.proxy.replyJob(thiefId, 12, 777, "org.x.Fib#fib", new UnsafeBuffer("01".getBytes()), 0, 2,
            new UnsafeBuffer(args), 0, args.length));
        await("stolen job", 5000, () -> thief.listener.has("stolenJob " + victimId + " 12 777 org.x.Fib#fib"), all);
        assertArrayEquals("01".getBytes(), thief.listener.payloads.get(0));
        assertArrayEquals(args, thief.listener.payloads.get(1));

        assertTrue(thief.proxy.sendResult(victimId, 777, new UnsafeBuffer(new byte[] {4, 2}), 0, 2));
        assertTrue(thief.proxy.sendFailure(victimId, 778, "java.lang.ArithmeticException", "/ by zero", "at Fib.fib(Fib.java:9)"));
        assertTrue(thief.proxy.sendAborted(victimId, 779));
        assertTrue(victim.proxy.sendAbort(thiefId, new long[] {780, 781}, 2));
        await("results and aborts", 5000, () -> victim.listener.has("result " + thiefId + " 777") &&
            victim.listener.has("failed " + thiefId + " 778 java.lang.ArithmeticException / by zero at Fib.fib(Fib.java:9)") &&
            victim.listener.has("aborted " + thiefId + " 779") &&
            thief.listener.has("abort " + victimId + " 780") && thief.listener.has("abort " + victimId + " 781"), all);
        assertArrayEquals(new byte[] {4, 2}, victim.listener.payloads.get(0));

        assertTrue(all.get(0).proxy.broadcastTerminate(3));
        await("terminate at every other node", 5000,
            () -> thief.listener.has("terminate 0 3") && victim.listener.has("terminate 0 3"), all);
        assertFalse(all.get(0).listener.events.stream().anyMatch(e -> e.startsWith("terminate")));
    }

    @Test
    void shouldTellOthersACrashedNodeIsDeadWithinTimeout() throws InterruptedException {
        final List<TestNode> all = startCluster(4);
        final TestNode crashed = all.get(3);
        final int crashedId = crashed.selfId();
        final long crashNs = System.nanoTime();
        crashed.close();
        final List<TestNode> survivors = all.subList(0, 3);
        await("survivors to see node " + crashedId + " DEAD", 10_000, () -> survivors.stream()
            .allMatch(n -> n.agent.membership().member(crashedId).state() == MemberState.DEAD), survivors);
        final long detectedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - crashNs);
        assertTrue(detectedMs >= TimeUnit.NANOSECONDS.toMillis(TestNode.HEARTBEAT_TIMEOUT_NS) - 100,
            "declared dead after " + detectedMs + " ms, before the timeout");
        for (final TestNode node : survivors) {
            assertTrue(node.listener.has("member " + crashedId + " site-b DEAD"), node.listener.events.toString());
            assertTrue(node.agent.membership().isCut(crashedId));
        }
        // Sending to the dead node is reported, not silently lost.
        assertTrue(all.get(1).proxy.requestSteal(crashedId, 5, false));
        await("undeliverable report", 5000, () -> all.get(1).listener.has("undeliverable " + crashedId), survivors);
    }

    @Test
    void shouldDropAllFramesFromANodeDeclaredDead() throws InterruptedException {
        final List<TestNode> all = startCluster(3);
        final TestNode paused = all.get(2);
        final int pausedId = paused.selfId();
        final TestNode victim = all.get(1);
        final List<TestNode> others = all.subList(0, 2);
        // The paused node is not stepped: to the others it is silent, so the registry declares it dead.
        await("node " + pausedId + " declared DEAD", 10_000,
            () -> victim.agent.membership().member(pausedId).state() == MemberState.DEAD, others);

        final long before = victim.agent.frameCounters().fromDeadPeer.get();
        // It wakes up, still thinking it is alive, and asks for work: the frame must be cut.
        assertTrue(paused.proxy.requestSteal(victim.selfId(), 99, false));
        await("frames from the dead node counted and dropped", 10_000,
            () -> victim.agent.frameCounters().fromDeadPeer.get() > before, all);
        stepFor(200, all);
        assertFalse(victim.listener.events.stream().anyMatch(e -> e.startsWith("stealRequest " + pausedId)),
            victim.listener.events.toString());
        // The woken node never hears the registry again, and says so.
        await("the dead node reports the registry lost", 10_000, () -> paused.listener.has("registryLost"), all);
    }

    @Test
    void shouldMarkGracefulLeaverLeftEverywhere() throws InterruptedException {
        final List<TestNode> all = startCluster(3);
        final TestNode leaver = all.get(1);
        final int leaverId = leaver.selfId();
        assertTrue(leaver.proxy.leave());
        await("leave sent", 5000, leaver.agent::hasLeft, all);
        final List<TestNode> stayers = List.of(all.get(0), all.get(2));
        await("others see LEFT", 5000, () -> stayers.stream()
            .allMatch(n -> n.agent.membership().member(leaverId).state() == MemberState.LEFT), all);
        stepFor(TimeUnit.NANOSECONDS.toMillis(TestNode.HEARTBEAT_TIMEOUT_NS) + 300, stayers);
        for (final TestNode node : stayers) {
            assertFalse(node.listener.has("member " + leaverId + " site-b DEAD"), "a leaver is never declared dead");
        }
    }

    @Test
    void shouldDeliverAOneMebibyteStolenJobIntact() throws InterruptedException {
        final TestNode first = new TestNode(driver.aeronDirectoryName(), "a", null, TimeUnit.SECONDS.toNanos(10), 16 * 1024 * 1024);
        nodes.add(first);
        final TestNode second = new TestNode(driver.aeronDirectoryName(), "a", first.agent.endpoint(), TimeUnit.SECONDS.toNanos(10),
            16 * 1024 * 1024);
        nodes.add(second);
        final List<TestNode> all = List.of(first, second);
        await("join", 10_000, () -> second.selfId() >= 0 && first.agent.membership().member(second.selfId()) != null, all);
        final byte[] args = new byte[1024 * 1024];
        new Random(3).nextBytes(args);
        assertTrue(first.proxy.replyJob(second.selfId(), 1, 2, "big.Job#run", new UnsafeBuffer(new byte[0]), 0, 0,
            new UnsafeBuffer(args), 0, args.length));
        await("1 MiB job", 20_000, () -> second.listener.events.stream().anyMatch(e -> e.startsWith("stolenJob")), all);
        assertArrayEquals(args, second.listener.payloads.get(1));
        assertTrue(first.agent.traffic().messagesSent(MessageType.CHUNK) >= 128, first.agent.traffic().toString());
    }

    @Test
    void shouldCountGarbageFramesAndKeepWorking() throws InterruptedException {
        final List<TestNode> all = startCluster(2);
        final TestNode target = all.get(1);
        final FrameCounters attackerCounters = new FrameCounters();
        try (AeronTransport attacker = new AeronTransport(
            TransportSettings.builder().aeronDirectoryName(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).build(),
            new FrameValidator(attackerCounters), new TrafficCounters(), Throwable::printStackTrace)) {
            final int link = attacker.linkTo(target.agent.endpoint());
            final Random random = new Random(11);
            int sent = 0;
            for (int i = 0; i < 100; i++) {
                final byte[] frame = new byte[1 + random.nextInt(60)];
                random.nextBytes(frame);
                sent += attacker.send(link, new UnsafeBuffer(frame), 0, frame.length) ? 1 : 0;
            }
            // A well-formed frame from a sender id that is no member: cut too.
            final StealRequestFlyweight forged = new StealRequestFlyweight();
            final UnsafeBuffer forgedBuffer = new UnsafeBuffer(new byte[StealRequestFlyweight.FRAME_LENGTH]);
            forged.wrap(forgedBuffer, 0, forgedBuffer.capacity());
            forged.headerDefaults(MessageType.STEAL_REQUEST).senderId(42);
            forged.requestId(1).thiefId(42).wideArea(false);
            assertTrue(attacker.send(link, forgedBuffer, 0, forgedBuffer.capacity()));
            final int garbage = sent;
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (target.agent.frameCounters().totalDropped() < garbage + 1 && System.nanoTime() - deadlineNs < 0) {
                attacker.doDriverWork();
                attacker.doOutboundWork(64);
                all.forEach(TestNode::doWork);
                Thread.sleep(1);
            }
            // Frames below the header length never leave the attacker; the others are counted at the target.
            final long tooShort = 100 - garbage;
            assertEquals(garbage + 1, target.agent.frameCounters().totalDropped(),
                target.agent.frameCounters() + " (" + tooShort + " frames too short to send)");
            assertEquals(1, target.agent.frameCounters().fromUnknownSender.get());
        }
        final int targetId = target.selfId();
        assertTrue(all.get(0).proxy.requestSteal(targetId, 5, false));
        await("the target still works", 5000, () -> target.listener.has("stealRequest 0 5 false"), all);
        assertEquals(0, target.agent.errorCount());
    }

    @Test
    void shouldJoinAStandaloneRegistry() throws InterruptedException {
        final StandaloneRegistry registry = new StandaloneRegistry(
            TransportSettings.builder().aeronDirectoryName(driver.aeronDirectoryName()).termLengthBytes(64 * 1024).build(),
            MembershipSettings.builder().heartbeatIntervalNs(TestNode.HEARTBEAT_INTERVAL_NS)
                .heartbeatTimeoutNs(TestNode.HEARTBEAT_TIMEOUT_NS).build(),
            new SystemNanoClock(), Throwable::printStackTrace);
        try {
            final TestNode a = node("x", registry.endpoint());
            final TestNode b = node("y", registry.endpoint());
            final List<TestNode> both = List.of(a, b);
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!(a.listener.has("member 1 y ALIVE") || b.listener.has("member 1 x ALIVE")) ||
                a.agent.membership().members().size() < 2 || b.agent.membership().members().size() < 2) {
                assertTrue(System.nanoTime() - deadlineNs < 0, "timed out joining the standalone registry");
                final int work = registry.doWork() + a.doWork() + b.doWork();
                if (work == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(a.agent.membership().members(), b.agent.membership().members());
            assertEquals(2, registry.registry().members().size());
            assertTrue(a.agent.registry() == null && b.agent.registry() == null, "nodes host no registry of their own");
            stepFor(0, both);
        } finally {
            registry.onClose();
        }
    }

    @Test
    void shouldFailJoinToUnreachableBootstrapWithinBoundedTimeAndSayWhatToFix() throws InterruptedException {
        final TestNode lonely = new TestNode(driver.aeronDirectoryName(), "a", "127.0.0.1:9", TimeUnit.SECONDS.toNanos(1), 64 * 1024);
        nodes.add(lonely);
        final long startNs = System.nanoTime();
        await("join failure", 5000, () -> lonely.listener.joinFailure != null, List.of(lonely));
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertTrue(tookMs < 3000, "took " + tookMs + " ms");
        assertEquals("no registry answered at 127.0.0.1:9 within 1 s: check --join and that the first node is running",
            lonely.listener.joinFailure);
        assertEquals(Arrays.asList("joinFailed"), lonely.listener.events);
        assertEquals(0, HeaderFlyweight.HEADER_LENGTH - 16);
    }
}
