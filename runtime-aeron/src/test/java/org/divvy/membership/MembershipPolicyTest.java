package org.divvy.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.divvy.membership.MembershipFixtures.admit;
import static org.divvy.membership.MembershipFixtures.join;
import static org.divvy.membership.MembershipFixtures.takeChallenge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.membership.MembershipFixtures.RecordingSender;
import org.divvy.agent.MemberDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Membership policies driven by a hand-advanced clock, no network. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MembershipPolicyTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final NodeConfig settings = NodeConfig.builder().networked(true)
        .heartbeatIntervalMs(100).acceptableHeartbeatPauseMs(7000).failurePhiThreshold(8).joinTimeoutMs(10_000).joinRetryIntervalMs(200).build();


    @Test
    void shouldAssignIdsAckJoinersAndBroadcastEveryChange() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:1", 0);
        assertEquals(List.of("h:1 MEMBER_LIST"), outbox.sent);
        assertEquals(0, outbox.lastList().assignedId());
        outbox.clear();

        admit(registry, outbox, "b", "h:2", 10 * MS);
        assertEquals(List.of("h:2 MEMBER_LIST", "h:1 MEMBER_LIST"), outbox.sent);
        assertEquals(MemberListFlyweight.NO_ASSIGNED_ID, outbox.lastList().assignedId());
        assertEquals(2, outbox.lastList().memberCount());
        assertEquals(2, registry.epoch());

        outbox.clear();
        admit(registry, outbox, "b", "h:2", 20 * MS);
        assertEquals(List.of("h:2 MEMBER_LIST"), outbox.sent, "a repeated JOIN gets its id again");
        assertEquals(1, outbox.lastList().assignedId());
        assertEquals(2, registry.members().size());
    }

    @Test
    void shouldRefuseAJoinWhoseEndpointCannotBeSentTo() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        // a hostile or broken joiner: channel syntax, no port, a port out of range, a bad host
        for (final String endpoint : new String[] {"h:1|interface=eth9", "h", "h:", "h:0", "h:70000", "h:12x", ":1", "h/x:1"}) {
            assertFalse(registry.onJoin(join("a", endpoint), 0), endpoint);
        }
        assertTrue(registry.members().isEmpty(), "nobody added");
        assertTrue(outbox.sent.isEmpty(), "nothing sent to such an endpoint");
        assertTrue(admit(registry, outbox, "a", "node-1.example:40123", 0));
        assertEquals(1, registry.members().size());
    }

    @Test
    void shouldDeclareASuspectedMemberDeadBroadcastAndTellItWhenItSpeaksAgain() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:1", 0);
        admit(registry, outbox, "b", "h:2", 0);
        // member 1 was last heard at its join; phi reaches 8 after 0.1 + 7 + 5.23 x 0.1 = 7.62 s
        for (long t = 0; t <= 7600 * MS; t += 100 * MS) {
            registry.onHeartbeat(0, t);
            registry.doWork(t);
        }
        assertEquals(MemberState.ALIVE, registry.members().get(1).state());
        outbox.clear();
        registry.onHeartbeat(0, 7650 * MS);
        registry.doWork(7650 * MS);
        assertEquals(MemberState.DEAD, registry.members().get(1).state());
        assertEquals(List.of("h:2"), outbox.cuts);
        assertTrue(outbox.sent.contains("h:1 MEMBER_LIST"));
        assertFalse(outbox.sent.contains("h:2 MEMBER_LIST"), "the dead member is not sent the broadcast");
        assertFalse(registry.isAlive(1));

        // It was only stopped, and heartbeats again: it is told, with the list that shows it dead, once a second.
        outbox.clear();
        registry.onHeartbeat(1, 7700 * MS);
        assertEquals(MemberState.DEAD, registry.members().get(1).state(), "a late heartbeat does not revive");
        registry.onHeartbeatFromRemoved(1, 7700 * MS);
        registry.onHeartbeatFromRemoved(1, 8000 * MS);
        assertEquals(List.of("h:2 MEMBER_LIST"), outbox.sent);
        assertEquals(MemberState.DEAD.code(), memberState(outbox.lastList(), 1));
        registry.onHeartbeatFromRemoved(1, 8700 * MS);
        assertEquals(List.of("h:2 MEMBER_LIST", "h:2 MEMBER_LIST"), outbox.sent);
        registry.onHeartbeatFromRemoved(0, 8700 * MS);
        registry.onHeartbeatFromRemoved(9, 8700 * MS);
        assertEquals(2, outbox.sent.size(), "alive and unknown ids are not told anything");
    }

    @Test
    void aRegistryThatWasStoppedItselfShouldRestartDetectionInsteadOfDeclaringEveryoneDead() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:1", 0);
        admit(registry, outbox, "b", "h:2", 0);
        long t = 0;
        for (; t <= 1000 * MS; t += 100 * MS) {
            registry.onHeartbeat(0, t);
            registry.onHeartbeat(1, t);
            registry.doWork(t);
        }
        // The registry's process is stopped for 20 s (a duty cycle 20 s after the last): nobody is suspected.
        t += 20_000 * MS;
        registry.doWork(t);
        assertTrue(registry.isAlive(0) && registry.isAlive(1), "the registry's own pause is not the members' silence");
        // Member 0 heartbeats again, member 1 does not: it is suspected 7.6 s after the pause ended.
        final long resumedNs = t;
        for (; t <= resumedNs + 7600 * MS; t += 100 * MS) {
            registry.onHeartbeat(0, t);
            registry.doWork(t);
        }
        assertTrue(registry.isAlive(1));
        t = resumedNs + 7650 * MS;
        registry.onHeartbeat(0, t);
        registry.doWork(t);
        assertFalse(registry.isAlive(1));
        assertTrue(registry.isAlive(0));
    }

    private static int memberState(final MemberListFlyweight list, final int id) {
        final int[] state = {-1};
        list.forEachMember((memberId, stateCode, site, endpoint) -> {
            if (memberId == id) {
                state[0] = stateCode;
            }
        });
        return state[0];
    }

    @Test
    void shouldDeclareAMemberDeadAtOnceWhenItsStarterReportsItsProcessExited() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:1", 0);
        admit(registry, outbox, "b", "h:2", 0);
        admit(registry, outbox, "c", "h:3", 0);
        registry.onLeave(2);
        registry.doWork(0);
        outbox.clear();
        final int epoch = registry.epoch();

        // Heard 100 ms ago, far inside the detector's allowance: only the report can make it dead.
        registry.onHeartbeat(1, 100 * MS);
        registry.reportExited(1);
        registry.reportExited(2); // left already: stays LEFT
        registry.reportExited(7); // never a member: ignored
        assertEquals(MemberState.ALIVE, registry.members().get(1).state(), "the agent's cycle applies the report");
        registry.doWork(200 * MS);
        assertEquals(MemberState.DEAD, registry.members().get(1).state());
        assertEquals(MemberState.LEFT, registry.members().get(2).state());
        assertEquals(epoch + 1, registry.epoch(), "one change");
        assertEquals(List.of("h:3", "h:2"), outbox.cuts, "the leaver (id 2), then the dead (id 1)");
        assertTrue(outbox.sent.contains("h:1 MEMBER_LIST"), "the survivor hears of the death");
        assertEquals(MemberState.DEAD.code(), memberState(outbox.lastList(), 1));
        assertEquals(1, registry.deathsReportedByLauncher());

        // Reported again (two exit callbacks): nothing changes.
        registry.reportExited(1);
        registry.doWork(300 * MS);
        assertEquals(epoch + 1, registry.epoch());
        assertEquals(1, registry.deathsReportedByLauncher());
    }

    @Test
    void shouldMarkAMemberWhoseExitAfterLeavingOvertookItsLeaveLeftNotDead() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:2", 0);
        admit(registry, outbox, "a", "h:3", 0);
        registry.doWork(0);
        final int epoch = registry.epoch();

        registry.reportLeftAndExited(1); // its starter asked it to leave; the exit came before its LEAVE
        registry.doWork(100 * MS);
        assertEquals(MemberState.LEFT, registry.members().get(1).state(), "the others are told it left, not crashed");
        assertEquals(epoch + 1, registry.epoch());
        assertEquals(0, registry.deathsReportedByLauncher());

        registry.onLeave(1); // its LEAVE arrives late: nothing changes
        registry.reportExited(1);
        registry.doWork(200 * MS);
        assertEquals(MemberState.LEFT, registry.members().get(1).state());
        assertEquals(epoch + 1, registry.epoch());
    }

    @Test
    void shouldMarkLeaverLeft() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        admit(registry, outbox, "a", "h:1", 0);
        admit(registry, outbox, "b", "h:2", 0);
        registry.onLeave(1);
        assertEquals(MemberState.LEFT, registry.members().get(1).state());
        assertEquals(3, registry.epoch());
    }

    private static final class RecordingListener implements MembershipListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void onJoined(final int selfId) {
            events.add("joined " + selfId);
        }

        @Override
        public void onJoinFailed(final String message) {
            events.add("failed " + message);
        }

        @Override
        public void onMemberChanged(final Member member) {
            events.add("member " + member.id() + " " + member.site() + " " + member.state());
        }

        @Override
        public void onRegistryLost(final String message) {
            events.add("lost " + message);
        }
    }

    @Test
    void shouldRetryJoinAndFailAtDeadlineWithMessageNamingTheAddress() {
        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final NodeConfig joining = NodeConfig.builder().networked(true).join("10.0.0.5:40123").build();
        final MembershipClient client = new MembershipClient(joining, "h:9", new Members("default"), outbox, List.of(listener));
        client.start(0);
        for (long t = 0; t < 10_000 * MS; t += 50 * MS) {
            client.doWork(t);
        }
        assertEquals(50, outbox.sent.size(), "one JOIN per 200 ms retry interval for 10 s");
        assertTrue(outbox.sent.stream().allMatch(s -> s.equals("10.0.0.5:40123 JOIN")));
        assertTrue(listener.events.isEmpty());
        client.doWork(10_000 * MS);
        assertEquals(MembershipClient.Phase.JOIN_FAILED, client.phase());
        assertEquals(List.of("failed no registry answered at 10.0.0.5:40123 within 10 s: check --join, that the first node is running, and that this node has the run's cluster secret"),
            listener.events);
    }

    @Test
    void shouldJoinApplyListsCutDeadSendersAndReportSilentRegistry() {
        final RecordingSender registrySender = new RecordingSender();
        final Registry registry = new Registry(settings, registrySender, "r:1");
        admit(registry, registrySender, "a", "h:1", 0);
        admit(registry, registrySender, "b", "h:2", 0);

        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final Members members = new Members("b");
        final MembershipClient client = new MembershipClient(
            NodeConfig.builder().networked(true).join("r:1").site("b").build(), "h:2", members, outbox, List.of(listener));
        client.start(0);
        client.doWork(0);
        final MemberListFlyweight ack = new MemberListFlyweight();
        final byte[] ackBytes = registrySender.frames.get(1); // the ack to h:2
        ack.wrap(new UnsafeBuffer(ackBytes), 0, ackBytes.length);
        client.onMemberList(ack, 10 * MS);
        assertEquals(MembershipClient.Phase.JOINED, client.phase());
        assertEquals(1, members.selfId());
        assertEquals(List.of("joined 1", "member 0 a ALIVE", "member 1 b ALIVE"), listener.events);
        assertEquals(MemberDirectory.MEMBER, members.senderStatus(0));
        assertEquals(MemberDirectory.UNKNOWN, members.senderStatus(7), "unknown senders are cut");

        registry.onLeave(0);
        client.onMemberList(registrySender.lastList(), 20 * MS);
        assertEquals(MemberDirectory.DEAD, members.senderStatus(0), "a leaver is cut");
        assertEquals(List.of("h:1"), outbox.cuts);
        assertEquals(MemberState.LEFT, members.member(0).state());

        // last heard at 20 ms: suspected once phi reaches 8, about 7.6 s later (duty cycles every 10 ms, no pause)
        listener.events.clear();
        long t = 20 * MS;
        for (; t <= 7600 * MS; t += 10 * MS) {
            client.doWork(t);
        }
        assertTrue(listener.events.isEmpty(), listener.events.toString());
        for (; t <= 7700 * MS; t += 10 * MS) {
            client.doWork(t);
        }
        assertEquals(MembershipClient.Phase.REGISTRY_LOST, client.phase());
        assertTrue(listener.events.get(0).startsWith("lost the registry at r:1 was silent for 7.6 s (failure detector phi "),
            listener.events.toString());
        assertTrue(listener.events.get(0).endsWith(">= 8): it crashed, was stopped for longer than "
            + "acceptableHeartbeatPauseMs=7000, or the network to it is cut"), listener.events.toString());
        assertNull(members.member(5));
    }

    @Test
    void aNodeThatWasStoppedAndRemovedShouldSaySoInsteadOfBlamingTheRegistry() {
        final RecordingSender registrySender = new RecordingSender();
        final Registry registry = new Registry(settings, registrySender, "r:1");
        admit(registry, registrySender, "a", "h:1", 0);
        admit(registry, registrySender, "b", "h:2", 0);
        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final MembershipClient client = new MembershipClient(
            NodeConfig.builder().networked(true).join("r:1").site("b").build(), "h:2", new Members("b"), outbox,
            List.of(listener));
        client.start(0);
        final MemberListFlyweight ack = new MemberListFlyweight();
        final byte[] ackBytes = registrySender.frames.get(1);
        ack.wrap(new UnsafeBuffer(ackBytes), 0, ackBytes.length);
        client.onMemberList(ack, 0);
        long t = 0;
        for (; t <= 1000 * MS; t += 100 * MS) {
            client.onRegistryHeartbeat(t);
            client.doWork(t);
            registry.onHeartbeat(0, t);
            registry.onHeartbeat(1, t);
            registry.doWork(t);
        }
        // node 1 is stopped for 12.3 s after its last duty cycle; the registry (running) declares it dead meanwhile
        final long stoppedNs = t - 100 * MS;
        for (; t <= stoppedNs + 12_300 * MS; t += 100 * MS) {
            registry.onHeartbeat(0, t);
            registry.doWork(t);
        }
        assertFalse(registry.isAlive(1));
        // It resumes: its first duty cycle notices the pause and suspects nobody; its heartbeat gets the list back.
        t = stoppedNs + 12_300 * MS;
        client.doWork(t);
        assertEquals(MembershipClient.Phase.JOINED, client.phase(), "the pause is its own, not the registry's silence");
        registrySender.clear();
        registry.onHeartbeatFromRemoved(1, t);
        client.onMemberList(registrySender.lastList(), t + MS);
        assertEquals(MembershipClient.Phase.REGISTRY_LOST, client.phase());
        final String lost = listener.events.get(listener.events.size() - 1);
        assertTrue(lost.startsWith("lost this node was paused for 12.3 s (the process or its machine was stopped: SIGSTOP, "
            + "a long GC pause, a suspended machine) and was removed from the run by the registry (declared DEAD at epoch 3)"),
            lost);
    }

    @Test
    void aNodeThatWasStoppedShouldNotBlameTheRegistryWhenItIsNeverHeardAgain() {
        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final RecordingSender registrySender = new RecordingSender();
        final Registry counting = new Registry(settings, registrySender, "r:1");
        admit(counting, registrySender, "a", "h:1", 0);
        final MembershipClient client = new MembershipClient(
            NodeConfig.builder().networked(true).join("r:1").build(), "h:1", new Members("a"), outbox, List.of(listener));
        client.start(0);
        final MemberListFlyweight ack = new MemberListFlyweight();
        final byte[] ackBytes = registrySender.frames.get(0);
        ack.wrap(new UnsafeBuffer(ackBytes), 0, ackBytes.length);
        client.onMemberList(ack, 0);
        client.doWork(0);
        // stopped for 20 s; then the registry is never heard again (its notice was lost)
        long t = 20_000 * MS;
        for (; client.phase() == MembershipClient.Phase.JOINED && t < 40_000 * MS; t += 10 * MS) {
            client.doWork(t);
        }
        assertTrue(t - 20_000 * MS > 7600 * MS, "the registry is suspected only an acceptable pause after this node resumed");
        final String lost = listener.events.get(listener.events.size() - 1);
        assertTrue(lost.startsWith("lost this node was paused for 20.0 s (the process or its machine was stopped: SIGSTOP, a "
            + "long GC pause, a suspended machine) and has not heard the registry at r:1 for 7.6 s since: the registry most "
            + "likely removed it from the run"), lost);
    }

    @Test
    void shouldCapTheJoinRetryIntervalAtTheJoinTimeout() {
        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final NodeConfig joining = NodeConfig.builder().networked(true).join("10.0.0.5:40123").joinTimeoutMs(100).build();
        final MembershipClient client = new MembershipClient(joining, "h:9", new Members("default"), outbox, List.of(listener));
        client.start(0);
        for (long t = 0; t < 100 * MS; t += MS) {
            client.doWork(t);
        }
        assertEquals(1, outbox.sent.size(), "a retry interval of 200 ms would never retry within 100 ms");
        client.doWork(100 * MS);
        assertEquals(MembershipClient.Phase.JOIN_FAILED, client.phase());
        assertTrue(listener.events.get(0).endsWith("within 100 ms: check --join, that the first node is running, and that this node has the run's cluster secret"),
            listener.events.toString());
    }

    @Test
    void shouldChallengeEveryJoinWithoutTheCookieOfItsNonceAndEndpoint() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        registry.onJoin(join("a", "h:1", 5, 0, new byte[0]), 0);
        final long cookie = takeChallenge(outbox, "h:1").cookie();
        assertTrue(outbox.sent.isEmpty());
        // a replayed or forged JOIN: another nonce, another endpoint, a made-up cookie
        registry.onJoin(join("a", "h:1", 6, cookie, new byte[0]), 0);
        takeChallenge(outbox, "h:1");
        registry.onJoin(join("a", "h:2", 5, cookie, new byte[0]), 0);
        takeChallenge(outbox, "h:2");
        registry.onJoin(join("a", "h:1", 5, cookie + 1, new byte[0]), 0);
        takeChallenge(outbox, "h:1");
        assertTrue(registry.members().isEmpty(), "nobody joins without the cookie of its own challenge");
        registry.onJoin(join("a", "h:1", 5, cookie, new byte[0]), 0);
        assertEquals(List.of("h:1 MEMBER_LIST"), outbox.sent);
        assertEquals(1, registry.members().size());
        final Registry other = new Registry(settings, new RecordingSender(), "r:1");
        assertFalse(registry.runKeyId() == other.runKeyId() || registry.runKeyId() == 0, "a random run key per registry");
    }

    @Test
    void shouldRefuseAJoinerWhoseBuildDiffersFromTheRun() {
        final RecordingSender outbox = new RecordingSender();
        final Registry registry = new Registry(settings, outbox, "r:1");
        final byte[] build = {1, 2, 3, 4, 5, 6, 7, 8};
        final byte[] otherBuild = {1, 2, 3, 4, 5, 9, 7, 8};
        assertTrue(admit(registry, outbox, "a", "h:1", build, 0));
        assertTrue(admit(registry, outbox, "t", "h:2", new byte[0], 0), "a tool that runs no jobs joins any run");
        outbox.clear();
        assertTrue(admit(registry, outbox, "b", "h:3", otherBuild, 0));
        assertEquals(List.of("h:3 JOIN_REFUSED"), outbox.sent);
        final JoinRefusedFlyweight refusal = new JoinRefusedFlyweight();
        refusal.wrap(new UnsafeBuffer(outbox.frames.get(0)), 0, outbox.frames.get(0).length);
        assertEquals(77, refusal.nonce());
        assertEquals("its build of the application differs from the run's (job types and codecs digest 010203040509, " +
            "the run's 010203040506): start every node from the same application jar", refusal.reason());
        assertEquals(2, registry.members().size());
        assertTrue(admit(registry, outbox, "c", "h:4", build, 0));
        assertEquals(3, registry.members().size());

        // the host's build is the run's from the start: a joiner of another build that comes first cannot lock it out
        final RecordingSender hostOutbox = new RecordingSender();
        final Registry hosted = new Registry(settings, hostOutbox, "r:1", build, false);
        assertTrue(admit(hosted, hostOutbox, "b", "h:3", otherBuild, 0));
        assertEquals(List.of("h:3 JOIN_REFUSED"), hostOutbox.sent);
        assertTrue(admit(hosted, hostOutbox, "a", "h:1", build, 0));
        assertEquals(1, hosted.members().size());
    }

    @Test
    void shouldJoinWithTheCookieAndRunKeyOfTheChallengeAndFailWhenRefused() {
        final RecordingSender outbox = new RecordingSender();
        final RecordingListener listener = new RecordingListener();
        final List<Integer> runKeys = new ArrayList<>();
        final MembershipClient client = new MembershipClient(NodeConfig.builder().networked(true).join("r:1").build(),
            "h:9", new Members("default"), outbox, List.of(listener), new byte[] {9}, runKeys::add);
        client.start(0);
        client.doWork(0);
        final JoinFlyweight first = lastJoin(outbox);
        assertEquals(0, first.cookie());
        assertEquals(1, first.digest().length);

        final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
        challenge.wrap(new UnsafeBuffer(new byte[256]), 0, 256);
        challenge.headerDefaults(JoinChallengeFlyweight.TYPE).senderId(Registry.REGISTRY_ID);
        challenge.fields(first.nonce() + 1, 99, 1234, "10.0.0.7:1");
        assertFalse(client.onJoinChallenge(challenge, MS), "an answer to another JOIN");
        challenge.fields(first.nonce(), 99, 1234, "h:1|interface=eth9");
        assertFalse(client.onJoinChallenge(challenge, MS), "a registry endpoint nobody can send to");
        challenge.fields(first.nonce(), 99, 1234, "10.0.0.7:1");
        assertTrue(client.onJoinChallenge(challenge, MS));
        assertEquals(List.of(1234), runKeys);
        client.doWork(MS);
        final JoinFlyweight second = lastJoin(outbox);
        assertEquals(List.of("r:1 JOIN", "10.0.0.7:1 JOIN"), outbox.sent,
            "the JOIN goes again at once, with the cookie, to the registry's own endpoint");
        assertEquals(99, second.cookie());
        assertEquals(first.nonce(), second.nonce());

        final JoinRefusedFlyweight refusal = new JoinRefusedFlyweight();
        refusal.wrap(new UnsafeBuffer(new byte[256]), 0, 256);
        refusal.headerDefaults(JoinRefusedFlyweight.TYPE).senderId(Registry.REGISTRY_ID);
        refusal.fields(first.nonce() + 1, "not you");
        assertFalse(client.onJoinRefused(refusal));
        refusal.fields(first.nonce(), "its build differs");
        assertTrue(client.onJoinRefused(refusal));
        assertEquals(MembershipClient.Phase.JOIN_FAILED, client.phase());
        assertEquals(List.of("failed the registry at r:1 refused this node: its build differs"), listener.events);
    }

    @Test
    void shouldNotTakeAnAckThatAssignsAnIdToAnotherEndpoint() {
        final RecordingSender registrySender = new RecordingSender();
        final Registry registry = new Registry(settings, registrySender, "r:1");
        admit(registry, registrySender, "a", "h:1", 0);
        final RecordingListener listener = new RecordingListener();
        final MembershipClient client = new MembershipClient(NodeConfig.builder().networked(true).join("r:1").build(),
            "h:2", new Members("default"), new RecordingSender(), List.of(listener));
        client.start(0);
        assertEquals(0, client.onMemberList(registrySender.lastList(), MS), "the ack of h:1, redirected to h:2");
        assertEquals(MembershipClient.Phase.JOINING, client.phase());
    }

    private static JoinFlyweight lastJoin(final RecordingSender outbox) {
        final byte[] bytes = outbox.frames.get(outbox.frames.size() - 1);
        final JoinFlyweight join = new JoinFlyweight();
        join.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        return join;
    }
}
