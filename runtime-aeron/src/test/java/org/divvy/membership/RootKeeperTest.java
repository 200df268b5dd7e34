package org.divvy.membership;

import static org.divvy.membership.MembershipFixtures.admit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.NodeConfig;
import org.divvy.membership.MembershipFixtures.RecordingSender;
import org.divvy.protocol.FrameCounters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The registry's keeper of roots when the outbound queue refuses a frame (it is full: push-back, never a silent drop):
 * a ROOT to the chosen master and a master's value forwarded to the submitter are kept and sent again until they go,
 * so a run never waits for a master that never heard of it, nor a submitter for a value that was dropped.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RootKeeperTest {
    private static final long RUN_ID = 1L; // submitter node 0's first run: (0 << 32) | 1
    private static final String ROOT = "type " + RootFlyweight.TYPE;
    private static final String RUN_RESULT = "type " + RunResultFlyweight.TYPE;

    private final NodeConfig settings = NodeConfig.builder().networked(true).heartbeatIntervalMs(100).build();
    private final RecordingSender outbox = new RecordingSender();
    private Registry registry;
    private RootKeeper keeper;

    @BeforeEach
    void threeMembers() {
        registry = new Registry(settings, outbox, "r:1");
        keeper = new RootKeeper(registry, outbox, new FrameCounters());
        admit(registry, outbox, "a", "h:10", 0); // node 0: the submitter
        admit(registry, outbox, "a", "h:11", 0); // node 1: the master the registry chooses
        admit(registry, outbox, "a", "h:12", 0); // node 2: the next one
        keeper.doWork(0);
        outbox.clear();
    }

    private static RootFlyweight delegatedRoot() {
        final RootFlyweight root = new RootFlyweight();
        root.wrap(new UnsafeBuffer(new byte[256]), 0, 256);
        root.headerDefaults(RootFlyweight.TYPE).senderId(0);
        root.root(RUN_ID, RootFlyweight.NO_MASTER, 0, "example.Job", new UnsafeBuffer(new byte[] {1, 2, 3}), 0, 3);
        return root;
    }

    private static RunResultFlyweight outcome(final int masterId, final int outcome) {
        final RunResultFlyweight result = new RunResultFlyweight();
        result.wrap(new UnsafeBuffer(new byte[256]), 0, 256);
        result.headerDefaults(RunResultFlyweight.TYPE).senderId(masterId);
        result.result(RUN_ID, masterId, 0, outcome, "", "42", new UnsafeBuffer(new byte[0]), 0, 0);
        return result;
    }

    @Test
    void shouldSendARootAQueueRefusedAgainUntilItGoes() {
        outbox.refusals = 2;
        assertTrue(keeper.onRoot(0, delegatedRoot()));
        assertEquals(List.of("h:11"), outbox.refused, "the root's first send to node 1 is refused");
        assertEquals(List.of(), outbox.sent);

        keeper.doWork(1);
        assertEquals(List.of("h:11", "h:11"), outbox.refused, "refused again: still kept");
        keeper.doWork(2);
        assertEquals(List.of("h:11 " + ROOT), outbox.sent, "sent once there is room");
        keeper.doWork(3);
        keeper.doWork(4);
        assertEquals(1, outbox.sent.size(), "and only once");
        assertEquals(1, keeper.runsKept());
    }

    @Test
    void shouldSendALargeRootAQueueRefusedAgainRebuiltFromItsArguments() {
        // above FrameHandler.OWN_BUFFER_MIN_BYTES: the registry keeps and forwards the frame as it came
        final byte[] arguments = new byte[100 * 1024];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = (byte)(i * 31);
        }
        final RootFlyweight built = new RootFlyweight();
        built.wrap(new UnsafeBuffer(new byte[128 * 1024]), 0, 128 * 1024);
        built.headerDefaults(RootFlyweight.TYPE).senderId(0);
        built.root(RUN_ID, RootFlyweight.NO_MASTER, 0, "example.Job", new UnsafeBuffer(arguments), 0, arguments.length);
        final byte[] frame = new byte[built.frameLength()];
        built.buffer().getBytes(0, frame);
        final RootFlyweight large = new RootFlyweight();
        large.wrap(new UnsafeBuffer(frame), 0, frame.length); // as the transport hands over a frame of its own

        outbox.refusals = 1;
        assertTrue(keeper.onRoot(0, large));
        assertEquals(List.of("h:11"), outbox.refused);
        keeper.doWork(1);
        assertEquals(List.of("h:11 " + ROOT), outbox.sent, "sent again once there is room");
        final RootFlyweight resent = new RootFlyweight();
        resent.wrap(new UnsafeBuffer(outbox.frames.get(0)), 0, outbox.frames.get(0).length);
        assertEquals(1, resent.masterId());
        final byte[] resentArguments = new byte[resent.argumentsLength()];
        resent.buffer().getBytes(resent.argumentsOffset(), resentArguments);
        assertTrue(java.util.Arrays.equals(arguments, resentArguments), "the same arguments");
    }

    @Test
    void shouldGiveARefusedRootToTheNextMasterIfTheChosenOneDiesMeanwhile() {
        outbox.refusals = 1;
        assertTrue(keeper.onRoot(0, delegatedRoot()));
        registry.reportExited(1);
        registry.doWork(1);
        outbox.clear();

        keeper.doWork(2);
        keeper.doWork(3);
        assertEquals(List.of("h:12 " + ROOT), outbox.sent, "node 2 is the master now; nothing goes to dead node 1");
        assertEquals(1, keeper.masterChanges());
    }

    @Test
    void shouldForwardAValueAQueueRefusedAgainAndKeepTheRunUntilTheSubmitterHasIt() {
        assertTrue(keeper.onRoot(0, delegatedRoot()));
        outbox.clear();
        outbox.refusals = 1;
        final RunResultFlyweight value = outcome(1, RunResultFlyweight.OUTCOME_VALUE);
        assertTrue(keeper.onRunResult(1, value, value.buffer(), 0, value.frameLength()));
        assertEquals(List.of("h:10"), outbox.refused);

        keeper.doWork(1);
        assertEquals(List.of("h:10 " + RUN_RESULT), outbox.sent, "the value reaches the submitter");
        keeper.doWork(2);
        assertEquals(1, outbox.sent.size());
        assertEquals(1, keeper.runsKept(), "kept until the submitter says it arrived");
        final RunResultFlyweight received = outcome(1, RunResultFlyweight.OUTCOME_RECEIVED);
        received.senderId(0);
        assertTrue(keeper.onRunResult(0, received, received.buffer(), 0, received.frameLength()));
        assertEquals(0, keeper.runsKept());
    }

    @Test
    void shouldSendAnEndNoticeAQueueRefusedAgainSoTheNewMasterEndsItsComputation() {
        // node 0 runs its own root (DivvyNode.run) and dies: node 1 takes over; its value has nobody to go to
        final RootFlyweight own = delegatedRoot();
        own.root(RUN_ID, 0, 0, "example.Job", new UnsafeBuffer(new byte[] {1, 2, 3}), 0, 3);
        assertTrue(keeper.onRoot(0, own));
        registry.reportExited(0);
        registry.doWork(1);
        keeper.doWork(2);
        outbox.clear();

        outbox.refusals = 1;
        final RunResultFlyweight value = outcome(1, RunResultFlyweight.OUTCOME_VALUE);
        value.takeovers(1);
        assertTrue(keeper.onRunResult(1, value, value.buffer(), 0, value.frameLength()));
        assertEquals(List.of("h:11"), outbox.refused, "the END notice to the new master is refused");
        assertEquals(List.of(), outbox.sent);

        keeper.doWork(3);
        assertEquals(List.of("h:11 " + RUN_RESULT), outbox.sent, "sent again once there is room");
        final RunResultFlyweight notice = new RunResultFlyweight();
        notice.wrap(new UnsafeBuffer(outbox.frames.get(0)), 0, outbox.frames.get(0).length);
        assertEquals(RunResultFlyweight.OUTCOME_END_NOTICE, notice.outcome());
        keeper.doWork(4);
        assertEquals(1, outbox.sent.size(), "and only once");
    }
}
