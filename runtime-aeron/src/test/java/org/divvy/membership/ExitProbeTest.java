package org.divvy.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.divvy.membership.MembershipFixtures.admit;
import static org.divvy.membership.MembershipFixtures.takeChallenge;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.divvy.NodeConfig;
import org.divvy.membership.MembershipFixtures.RecordingSender;
import org.divvy.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The registry's probe of silent members, over real UDP sockets on loopback (the registry itself on a hand-advanced
 * clock): a member whose socket was closed, as a killed process's is, is declared dead a few heartbeat intervals
 * after it fell silent, far inside a failure detector's allowance of 10 minutes; a member whose socket is open but
 * never read, as a stopped process's is, stays alive however long it is silent (only the detector removes it).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExitProbeTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A detector that waits 10 minutes: a death declared within the test came from the probe. */
    private final NodeConfig settings = NodeConfig.builder().networked(true)
        .heartbeatIntervalMs(100).acceptableHeartbeatPauseMs(600_000).failurePhiThreshold(8).build();

    @Test
    void shouldDeclareASilentMemberWhosePortIsClosedDeadAndKeepAStoppedOneWhosePortIsOpen() throws Exception {
        try (DatagramChannel stopped = bound(); DatagramChannel killed = bound()) {
            final RecordingSender outbox = new RecordingSender();
            final Registry registry = new Registry(settings, outbox, "r:1", new byte[0], true);
            try {
                admit(registry, outbox, "a", endpoint(stopped), 0);
                admit(registry, outbox, "a", endpoint(killed), 0);
                killed.close(); // its process is gone: the kernel answers for the port
                registry.doWork(0);
                final long[] nowNs = {0};
                Await.within(Duration.ofSeconds(20)).until(() -> {
                    nowNs[0] += 10 * MS; // the clock runs 10 ms per cycle; the probe starts at 300 ms of silence
                    registry.doWork(nowNs[0]);
                    return registry.members().get(1).state() == MemberState.DEAD;
                }, "the member whose port closed is declared dead");
                assertTrue(nowNs[0] < 600_000 * MS, "long before the detector's allowance");
                assertEquals(MemberState.ALIVE, registry.members().get(0).state());
                assertEquals(1, registry.deathsFoundByProbe());
                assertTrue(outbox.sent.contains(endpoint(stopped) + " MEMBER_LIST"), "the others are told");

                // The stopped member: 4 s of silence on the registry's clock and a real second for any answer.
                runFor(registry, nowNs, 4_000 * MS);
                assertEquals(MemberState.ALIVE, registry.members().get(0).state(), "a stopped process holds its port");
                assertEquals(1, registry.deathsFoundByProbe());
                assertTrue(registry.exitProbeOpen(0), "still probed while it is silent");

                // Past 5 s of silence it is no longer probed: a client of an external driver loses its port when
                // the driver times it out (10 s by default), so a closed port would no longer prove it gone.
                runFor(registry, nowNs, 5_500 * MS);
                assertFalse(registry.exitProbeOpen(0), "silent for more than 5 s: left to the detector");
                stopped.close(); // an external driver released the stopped client's port
                runFor(registry, nowNs, 8_000 * MS);
                assertEquals(MemberState.ALIVE, registry.members().get(0).state(),
                    "a port closed after 5 s of silence is not taken as proof: the detector's allowance holds");
                assertEquals(1, registry.deathsFoundByProbe());
            } finally {
                registry.close();
            }
        }
    }

    /**
     * Steps the registry 10 ms of its clock per cycle until {@code nowNs[0]} reaches {@code untilNs}, then at that
     * time until at least a real second has passed, so that the kernel's answer to any probe has arrived (the clock
     * must not run past {@code untilNs}: the probe's window ends at 5 s of silence).
     */
    private static void runFor(final Registry registry, final long[] nowNs, final long untilNs)
        throws InterruptedException {
        final long realUntilNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() - realUntilNs < 0 || nowNs[0] - untilNs < 0) {
            if (nowNs[0] - untilNs < 0) {
                nowNs[0] = Math.min(nowNs[0] + 10 * MS, untilNs); // the clock stops at untilNs; the cycles go on
            }
            registry.doWork(nowNs[0]);
            Thread.sleep(2);
        }
    }

    @Test
    void shouldProbeAMemberAgainOnceItWasHeard() throws Exception {
        try (DatagramChannel member = bound()) {
            final RecordingSender outbox = new RecordingSender();
            final Registry registry = new Registry(settings, outbox, "r:1", new byte[0], true);
            try {
                admit(registry, outbox, "a", endpoint(member), 0);
                final long[] nowNs = {0};
                runFor(registry, nowNs, 1_000 * MS);
                assertTrue(registry.exitProbeOpen(0), "silent: probed");
                registry.onHeartbeat(0, nowNs[0]); // it runs again
                nowNs[0] += 100 * MS; // the registry looks at its members once per heartbeat interval
                registry.doWork(nowNs[0]);
                assertFalse(registry.exitProbeOpen(0), "heard again: its probe is closed");
                member.close(); // then it is killed
                final long heardAtNs = nowNs[0];
                Await.within(Duration.ofSeconds(20)).until(() -> {
                    nowNs[0] += 10 * MS;
                    registry.doWork(nowNs[0]);
                    return registry.members().get(0).state() == MemberState.DEAD;
                }, "the member killed after it was heard again is declared dead");
                assertTrue(nowNs[0] - heardAtNs < 5_000 * MS, "by the probe, within its 5 s window");
            } finally {
                registry.close();
            }
        }
    }

    @Test
    void shouldNotProbeAHostGivenByNameNorTheRegistrysOwnHost() throws Exception {
        try (DatagramChannel host = bound()) {
            final RecordingSender outbox = new RecordingSender();
            final Registry registry = new Registry(settings, outbox, endpoint(host), new byte[0], true);
            try {
                join(registry, outbox, endpoint(host)); // the node that hosts the registry
                join(registry, outbox, "localhost:9"); // a name: no lookup on the agent thread
                for (long t = 0; t <= 2_000 * MS; t += 10 * MS) {
                    registry.doWork(t);
                }
                assertFalse(registry.exitProbeOpen(0));
                assertFalse(registry.exitProbeOpen(1));
                assertEquals(MemberState.ALIVE, registry.members().get(1).state());
            } finally {
                registry.close();
            }
        }
    }

    @Test
    void shouldRecogniseAddressLiterals() {
        assertTrue(ExitProbe.isAddressLiteral("127.0.0.1"));
        assertTrue(ExitProbe.isAddressLiteral("10.1.2.33"));
        assertTrue(ExitProbe.isAddressLiteral("::1"));
        assertTrue(ExitProbe.isAddressLiteral("fe80::1"));
        assertFalse(ExitProbe.isAddressLiteral("localhost"));
        assertFalse(ExitProbe.isAddressLiteral("node-1.example"));
        assertFalse(ExitProbe.isAddressLiteral("1.2.3"));
        assertFalse(ExitProbe.isAddressLiteral("1.2.3.4.5"));
        assertFalse(ExitProbe.isAddressLiteral("1..2.3"));
        assertFalse(ExitProbe.isAddressLiteral("1234.1.1.1"));
    }

    /** As {@link MembershipFixtures#admit}, for a registry whose own endpoint is not the fixture's. */
    private static void join(final Registry registry, final RecordingSender outbox, final String endpoint) {
        assertTrue(registry.onJoin(MembershipFixtures.join("a", endpoint, 77, 0, new byte[0]), 0));
        final JoinChallengeFlyweight challenge = takeChallenge(outbox, endpoint);
        assertTrue(registry.onJoin(MembershipFixtures.join("a", endpoint, 77, challenge.cookie(), new byte[0]), 0));
    }

    private static DatagramChannel bound() throws IOException {
        return DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
    }

    private static String endpoint(final DatagramChannel channel) throws IOException {
        return "127.0.0.1:" + ((InetSocketAddress)channel.getLocalAddress()).getPort();
    }
}
