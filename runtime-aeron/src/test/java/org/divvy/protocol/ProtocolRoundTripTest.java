package org.divvy.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.divvy.agent.FrameDispatcher;
import org.divvy.agent.EveryoneIsAMember;
import org.divvy.lifecycle.LifecycleHandler;
import org.divvy.lifecycle.TerminateFlyweight;
import org.divvy.membership.JoinChallengeFlyweight;
import org.divvy.membership.JoinFlyweight;
import org.divvy.membership.JoinRefusedFlyweight;
import org.divvy.membership.LeaveAnswerFlyweight;
import org.divvy.membership.LeaveRequestFlyweight;
import org.divvy.membership.MemberListFlyweight;
import org.divvy.membership.MembershipMessages;
import org.divvy.membership.RootFlyweight;
import org.divvy.membership.RunResultFlyweight;
import org.divvy.recovery.OrphanResultsAckFlyweight;
import org.divvy.recovery.OrphanResultsFlyweight;
import org.divvy.recovery.OrphanTuplesFlyweight;
import org.divvy.recovery.ResultRequestFlyweight;
import org.divvy.results.AbortFlyweight;
import org.divvy.results.JobResultFlyweight;
import org.divvy.stealing.StealReplyFlyweight;
import org.divvy.stealing.StealRequestFlyweight;
import org.divvy.transport.ChunkFlyweight;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProtocolRoundTripTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final FrameCounters counters = new FrameCounters();
    private final FrameValidator headerValidator = new FrameValidator(counters);
    /** Every type a node registers, each with a handler that records it: the receive path's checks. */
    private final FrameDispatcher dispatcher = new FrameDispatcher(counters, new EveryoneIsAMember(), e -> {
        throw new AssertionError("a handler threw", e);
    });
    private int delivered;

    ProtocolRoundTripTest() {
        register(JoinFlyweight.TYPE, new JoinFlyweight(), JoinFlyweight.MIN_BODY_LENGTH);
        register(MemberListFlyweight.TYPE, new MemberListFlyweight(), MemberListFlyweight.MIN_BODY_LENGTH);
        register(JoinChallengeFlyweight.TYPE, new JoinChallengeFlyweight(), JoinChallengeFlyweight.MIN_BODY_LENGTH);
        register(JoinRefusedFlyweight.TYPE, new JoinRefusedFlyweight(), JoinRefusedFlyweight.MIN_BODY_LENGTH);
        register(MembershipMessages.LEAVE, new HeaderFlyweight(), 0);
        register(MembershipMessages.HEARTBEAT, new HeaderFlyweight(), 0);
        register(StealRequestFlyweight.TYPE, new StealRequestFlyweight(), StealRequestFlyweight.MIN_BODY_LENGTH);
        register(StealReplyFlyweight.TYPE, new StealReplyFlyweight(), StealReplyFlyweight.MIN_BODY_LENGTH);
        register(JobResultFlyweight.TYPE, new JobResultFlyweight(), JobResultFlyweight.MIN_BODY_LENGTH);
        register(AbortFlyweight.TYPE, new AbortFlyweight(), AbortFlyweight.MIN_BODY_LENGTH);
        register(TerminateFlyweight.TYPE, new TerminateFlyweight(), TerminateFlyweight.MIN_BODY_LENGTH);
        register(ChunkFlyweight.TYPE, new ChunkFlyweight(), ChunkFlyweight.MIN_BODY_LENGTH);
        register(LifecycleHandler.RUN_STARTED, new HeaderFlyweight(), 0);
        register(OrphanTuplesFlyweight.TYPE, new OrphanTuplesFlyweight(), OrphanTuplesFlyweight.MIN_BODY_LENGTH);
        register(ResultRequestFlyweight.TYPE, new ResultRequestFlyweight(), ResultRequestFlyweight.MIN_BODY_LENGTH);
        register(AbortFlyweight.ORPHAN_PROPAGATION_TYPE, new AbortFlyweight(), AbortFlyweight.MIN_BODY_LENGTH);
        register(RootFlyweight.TYPE, new RootFlyweight(), RootFlyweight.MIN_BODY_LENGTH);
        register(RunResultFlyweight.TYPE, new RunResultFlyweight(), RunResultFlyweight.MIN_BODY_LENGTH);
        register(LeaveRequestFlyweight.TYPE, new LeaveRequestFlyweight(), LeaveRequestFlyweight.MIN_BODY_LENGTH);
        register(LeaveAnswerFlyweight.TYPE, new LeaveAnswerFlyweight(), LeaveAnswerFlyweight.MIN_BODY_LENGTH);
        register(MembershipMessages.LEAVE_ORDER, new HeaderFlyweight(), 0);
        register(OrphanResultsFlyweight.TYPE, new OrphanResultsFlyweight(), OrphanResultsFlyweight.MIN_BODY_LENGTH);
        register(OrphanResultsAckFlyweight.TYPE, new OrphanResultsAckFlyweight(), OrphanResultsAckFlyweight.MIN_BODY_LENGTH);
    }

    private void register(final int type, final HeaderFlyweight body, final int minBodyLength) {
        dispatcher.register(type, "type " + type, body, minBodyLength, FrameDispatcher.Senders.MEMBERS,
            (senderId, buffer, offset, length) -> {
                delivered = type;
                return 0;
            });
    }

    /** The frame's type if the header check and then the dispatcher (body, sender) let it through, else INVALID. */
    private int validate(final UnsafeBuffer frame, final int offset, final int length) {
        final int type = headerValidator.validateHeader(frame, offset, length);
        if (type == FrameValidator.INVALID) {
            return FrameValidator.INVALID;
        }
        delivered = FrameValidator.INVALID;
        dispatcher.onFrame(type, frame, offset, length);
        return delivered;
    }

    private static UnsafeBuffer bytes(final String s) {
        return new UnsafeBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] copy(final UnsafeBuffer b, final int offset, final int length) {
        final byte[] out = new byte[length];
        b.getBytes(offset, out);
        return out;
    }

    private <T extends HeaderFlyweight> T header(final T fly, final int type) {
        fly.wrap(buffer, 0, buffer.capacity());
        fly.headerDefaults(type).senderId(7).epoch(3).flags(0x1234);
        return fly;
    }

    private void assertHeader(final HeaderFlyweight fly, final int type) {
        assertEquals(HeaderFlyweight.CURRENT_VERSION, fly.version());
        assertEquals(type, fly.type());
        assertEquals(7, fly.senderId());
        assertEquals(3, fly.epoch());
        assertEquals(0x1234, fly.flags());
    }

    /** Every valid frame this test builds, for the truncation test. */
    private List<byte[]> allValidFrames() {
        final List<byte[]> frames = new ArrayList<>();
        header(new JoinFlyweight(), JoinFlyweight.TYPE).fields(11L, 22L, "site-a", "127.0.0.1:4000", new byte[] {1, 2, 3});
        frames.add(current());
        final MemberListFlyweight list = header(new MemberListFlyweight(), MemberListFlyweight.TYPE);
        list.assignedId(2).appendMember(0, 0, "a", "h:1").appendMember(2, 2, "bé", "h:2");
        frames.add(current());
        header(new HeaderFlyweight(), MembershipMessages.LEAVE);
        frames.add(current());
        header(new HeaderFlyweight(), MembershipMessages.HEARTBEAT);
        frames.add(current());
        header(new HeaderFlyweight(), LifecycleHandler.RUN_STARTED);
        frames.add(current());
        header(new LeaveRequestFlyweight(), LeaveRequestFlyweight.TYPE).fields(5L, 6L, "127.0.0.1:4001", new int[] {2, 3});
        frames.add(current());
        header(new LeaveAnswerFlyweight(), LeaveAnswerFlyweight.TYPE).fields(5L, 2, "node 2: asked to leave");
        frames.add(current());
        header(new StealRequestFlyweight(), StealRequestFlyweight.TYPE).requestId(99).wideArea(true);
        frames.add(current());
        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(5).none();
        frames.add(current());
        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(5).ownerJobId(77)
            .job("a.B#c", bytes("012"), 0, 3, bytes("args"), 0, 4);
        frames.add(current());
        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(77).value(bytes("v"), 0, 1);
        frames.add(current());
        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(77).exception("x.Y", "m", "at z");
        frames.add(current());
        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(77).aborted();
        frames.add(current());
        header(new AbortFlyweight(), AbortFlyweight.TYPE).count(2).jobId(0, 1).jobId(1, 2);
        frames.add(current());
        header(new TerminateFlyweight(), TerminateFlyweight.TYPE).exitCode(3);
        frames.add(current());
        header(new StealRequestFlyweight(), StealRequestFlyweight.TYPE).requestId(98).wideArea(false).wantsOrphanTable(true);
        frames.add(current());
        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(6).ownerJobId(78)
            .job("a.B#c", bytes("0"), 0, 1, bytes(""), 0, 0).restarted(true);
        frames.add(current());
        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(79).notHeld();
        frames.add(current());
        header(new AbortFlyweight(), AbortFlyweight.ORPHAN_PROPAGATION_TYPE).count(1).jobId(0, 5);
        frames.add(current());
        final OrphanTuplesFlyweight tuples = header(new OrphanTuplesFlyweight(), OrphanTuplesFlyweight.TYPE).start(true, 3);
        int at = tuples.putPair(OrphanTuplesFlyweight.PAIRS_OFFSET, 2, 11L, bytes("\u0001\u0002"), 0, 2);
        at = tuples.putPair(at, 3, 12L, bytes(""), 0, 0);
        tuples.frameLength(tuples.putPair(at, 4, 13L, bytes("\u0007"), 0, 1));
        frames.add(current());
        header(new ResultRequestFlyweight(), ResultRequestFlyweight.TYPE).request(80, bytes("\u0003\u0004"), 0, 2);
        frames.add(current());
        writeTwoOrphanResults();
        frames.add(current());
        header(new OrphanResultsAckFlyweight(), OrphanResultsAckFlyweight.TYPE).kept(2);
        frames.add(current());
        header(new RootFlyweight(), RootFlyweight.TYPE).root(7L << 32 | 1, RootFlyweight.NO_MASTER, 0, "a.B#c",
            bytes("\u0001\u0002\u0003"), 0, 3);
        frames.add(current());
        header(new RunResultFlyweight(), RunResultFlyweight.TYPE).result(7L << 32 | 1, 2, 1,
            RunResultFlyweight.OUTCOME_VALUE, "spawned 3", "42", bytes("\u0000\u0001"), 0, 2);
        frames.add(current());
        header(new ChunkFlyweight(), ChunkFlyweight.TYPE).messageId(1).chunkIndex(0).chunkCount(2).totalLength(100)
            .frameLength(ChunkFlyweight.PAYLOAD_OFFSET + 50);
        frames.add(current());
        return frames;
    }

    private byte[] current() {
        final int length = buffer.getInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER);
        return copy(buffer, 0, length);
    }

    private int validateCurrent() {
        return validate(buffer, 0, buffer.getInt(HeaderFlyweight.FRAME_LENGTH_OFFSET, HeaderFlyweight.BYTE_ORDER));
    }

    @Test
    void shouldRoundTripJoin() {
        header(new JoinFlyweight(), JoinFlyweight.TYPE).fields(11L, 22L, "site-a", "127.0.0.1:4000", new byte[] {1, 2, 3});
        assertEquals(JoinFlyweight.TYPE, validateCurrent());
        final JoinFlyweight read = new JoinFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, JoinFlyweight.TYPE);
        assertEquals("site-a", read.site());
        assertEquals("127.0.0.1:4000", read.endpoint());
        assertEquals(11L, read.nonce());
        assertEquals(22L, read.cookie());
        assertArrayEquals(new byte[] {1, 2, 3}, read.digest());
    }

    @Test
    void shouldRoundTripTheJoinChallengeAndRefusal() {
        header(new JoinChallengeFlyweight(), JoinChallengeFlyweight.TYPE).fields(-5L, 7L, 99, "127.0.0.1:4000");
        assertEquals(JoinChallengeFlyweight.TYPE, validateCurrent());
        final JoinChallengeFlyweight challenge = new JoinChallengeFlyweight();
        challenge.wrap(buffer, 0, buffer.capacity());
        assertEquals(-5L, challenge.nonce());
        assertEquals(7L, challenge.cookie());
        assertEquals(99, challenge.runKeyId());
        assertEquals("127.0.0.1:4000", challenge.registryEndpoint());
        header(new JoinRefusedFlyweight(), JoinRefusedFlyweight.TYPE).fields(3L, "a different build");
        assertEquals(JoinRefusedFlyweight.TYPE, validateCurrent());
        final JoinRefusedFlyweight refusal = new JoinRefusedFlyweight();
        refusal.wrap(buffer, 0, buffer.capacity());
        assertEquals(3L, refusal.nonce());
        assertEquals("a different build", refusal.reason());
    }

    @Test
    void shouldRoundTripTheLeaveRequestAndAnswer() {
        header(new LeaveRequestFlyweight(), LeaveRequestFlyweight.TYPE).fields(-9L, 8L, "127.0.0.1:4001", new int[] {2, 7});
        assertEquals(LeaveRequestFlyweight.TYPE, validateCurrent());
        final LeaveRequestFlyweight request = new LeaveRequestFlyweight();
        request.wrap(buffer, 0, buffer.capacity());
        assertEquals(-9L, request.nonce());
        assertEquals(8L, request.cookie());
        assertEquals("127.0.0.1:4001", request.endpoint());
        assertEquals(2, request.nodeIdCount());
        assertEquals(7, request.nodeId(1));
        // a count the frame does not hold, and more ids than one request may name: malformed
        header(new LeaveRequestFlyweight(), LeaveRequestFlyweight.TYPE).fields(1L, 0L, "h:1", new int[] {2});
        buffer.putInt(LeaveRequestFlyweight.ENDPOINT_OFFSET + HeaderFlyweight.VAR_LENGTH_PREFIX + 3, 2,
            HeaderFlyweight.BYTE_ORDER);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        header(new LeaveRequestFlyweight(), LeaveRequestFlyweight.TYPE).fields(1L, 0L, "h:1",
            new int[LeaveRequestFlyweight.MAX_NODE_IDS + 1]);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        header(new LeaveAnswerFlyweight(), LeaveAnswerFlyweight.TYPE).fields(4L, 9, "node 9: no such member");
        assertEquals(LeaveAnswerFlyweight.TYPE, validateCurrent());
        final LeaveAnswerFlyweight answer = new LeaveAnswerFlyweight();
        answer.wrap(buffer, 0, buffer.capacity());
        assertEquals(4L, answer.nonce());
        assertEquals(9, answer.nodeId());
        assertEquals("node 9: no such member", answer.text());
        // the longest answer, in 3-byte characters, still fits a join-key frame (1 KiB with its trailer)
        final String longest = "\u20ac".repeat(LeaveAnswerFlyweight.MAX_TEXT_CHARS + 50);
        header(new LeaveAnswerFlyweight(), LeaveAnswerFlyweight.TYPE).fields(4L, 9, longest);
        assertEquals(LeaveAnswerFlyweight.TYPE, validateCurrent());
        answer.wrap(buffer, 0, buffer.capacity());
        assertEquals(LeaveAnswerFlyweight.MAX_TEXT_CHARS, answer.text().length());
        assertTrue(answer.frameLength() + 64 <= org.divvy.security.FrameAuthenticator.MAX_JOIN_KEY_FRAME, "" + answer.frameLength());
        header(new LeaveRequestFlyweight(), LeaveRequestFlyweight.TYPE).fields(1L, 2L, "255.255.255.255:65535",
            new int[LeaveRequestFlyweight.MAX_NODE_IDS]);
        final LeaveRequestFlyweight largest = new LeaveRequestFlyweight();
        largest.wrap(buffer, 0, buffer.capacity());
        assertTrue(largest.frameLength() + 64 <= org.divvy.security.FrameAuthenticator.MAX_JOIN_KEY_FRAME, "" + largest.frameLength());
    }

    /** ORPHAN_RESULTS with two entries, the second one's arguments empty. */
    private void writeTwoOrphanResults() {
        final OrphanResultsFlyweight results = header(new OrphanResultsFlyweight(), OrphanResultsFlyweight.TYPE);
        results.count(2);
        final int at = results.putEntry(OrphanResultsFlyweight.ENTRIES_OFFSET, bytes("\u0001\u0002"), 2, "a.B#c",
            bytes("args"), 4, bytes("v"), 1);
        results.frameLength(results.putEntry(at, bytes("\u0003"), 1, "d.E#f", bytes(""), 0, bytes("42"), 2));
    }

    @Test
    void shouldRoundTripTheHandOverOfALeaverAndItsAcknowledgement() {
        writeTwoOrphanResults();
        assertEquals(OrphanResultsFlyweight.TYPE, validateCurrent());
        final OrphanResultsFlyweight read = new OrphanResultsFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, OrphanResultsFlyweight.TYPE);
        assertEquals(2, read.count());
        final int second = read.nextEntry(OrphanResultsFlyweight.ENTRIES_OFFSET);
        assertEquals("d.E#f", read.stringAt(read.fieldAt(second, 1)));
        assertEquals(0, read.dataLength(read.fieldAt(second, 2)));
        final int result = read.fieldAt(second, 3);
        assertEquals("42", buffer.getStringWithoutLengthUtf8(read.dataOffset(result), read.dataLength(result)));
        assertEquals(read.frameLength(), read.nextEntry(second));
        // a count the frame does not hold: malformed
        read.count(3);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        header(new OrphanResultsAckFlyweight(), OrphanResultsAckFlyweight.TYPE).kept(17);
        assertEquals(OrphanResultsAckFlyweight.TYPE, validateCurrent());
        final OrphanResultsAckFlyweight ack = new OrphanResultsAckFlyweight();
        ack.wrap(buffer, 0, buffer.capacity());
        assertHeader(ack, OrphanResultsAckFlyweight.TYPE);
        assertEquals(17, ack.kept());
        header(new OrphanResultsAckFlyweight(), OrphanResultsAckFlyweight.TYPE).kept(OrphanResultsAckFlyweight.REFUSED);
        assertEquals(OrphanResultsAckFlyweight.TYPE, validateCurrent(), "a refusal (the taker leaves too) is well-formed");
        ack.wrap(buffer, 0, buffer.capacity());
        assertEquals(OrphanResultsAckFlyweight.REFUSED, ack.kept());
        ack.frameLength(OrphanResultsAckFlyweight.FRAME_LENGTH + 4);
        assertEquals(FrameValidator.INVALID, validateCurrent());
    }

    @Test
    void shouldRoundTripMemberList() {
        header(new MemberListFlyweight(), MemberListFlyweight.TYPE).assignedId(2)
            .appendMember(0, 0, "a", "h:1").appendMember(2, 2, "bé", "h:2");
        assertEquals(MemberListFlyweight.TYPE, validateCurrent());
        final MemberListFlyweight read = new MemberListFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, MemberListFlyweight.TYPE);
        assertEquals(2, read.assignedId());
        final List<String> seen = new ArrayList<>();
        assertEquals(2, read.forEachMember((id, state, site, endpoint) -> seen.add(id + "/" + state + "/" + site + "/" + endpoint)));
        assertEquals(List.of("0/0/a/h:1", "2/2/bé/h:2"), seen);
    }

    @Test
    void shouldRoundTripHeaderOnlyTypes() {
        for (final int type : new int[] {MembershipMessages.LEAVE, MembershipMessages.HEARTBEAT, LifecycleHandler.RUN_STARTED,
            MembershipMessages.LEAVE_ORDER}) {
            header(new HeaderFlyweight(), type);
            assertEquals(type, validateCurrent());
            final HeaderFlyweight read = new HeaderFlyweight();
            read.wrap(buffer, 0, HeaderFlyweight.HEADER_LENGTH);
            assertHeader(read, type);
        }
    }

    @Test
    void shouldRoundTripStealRequest() {
        header(new StealRequestFlyweight(), StealRequestFlyweight.TYPE).requestId(Long.MAX_VALUE).wideArea(true);
        assertEquals(StealRequestFlyweight.TYPE, validateCurrent());
        final StealRequestFlyweight read = new StealRequestFlyweight();
        read.wrap(buffer, 0, StealRequestFlyweight.FRAME_LENGTH);
        assertHeader(read, StealRequestFlyweight.TYPE);
        assertEquals(Long.MAX_VALUE, read.requestId());
        assertTrue(read.wideArea());
    }

    @Test
    void shouldRoundTripStealReplyNoneAndJob() {
        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(5).none();
        assertEquals(StealReplyFlyweight.TYPE, validateCurrent());
        final StealReplyFlyweight read = new StealReplyFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(5, read.requestId());
        assertFalse(read.hasJob());

        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(6).ownerJobId(-77)
            .job("org.x.Fib#fib", bytes("0211"), 0, 4, bytes("arguments"), 0, 9);
        assertEquals(StealReplyFlyweight.TYPE, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, StealReplyFlyweight.TYPE);
        assertEquals(6, read.requestId());
        assertTrue(read.hasJob());
        assertEquals(-77, read.ownerJobId());
        assertEquals("org.x.Fib#fib", read.jobTypeName());
        assertEquals("0211", new String(copy(buffer, read.stampOffset(), read.stampLength()), StandardCharsets.UTF_8));
        assertEquals("arguments", new String(copy(buffer, read.argumentsOffset(), read.argumentsLength()), StandardCharsets.UTF_8));
    }

    @Test
    void shouldRoundTripJobResultOutcomes() {
        final JobResultFlyweight read = new JobResultFlyweight();
        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(42).value(bytes("result"), 0, 6);
        assertEquals(JobResultFlyweight.TYPE, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, JobResultFlyweight.TYPE);
        assertEquals(42, read.ownerJobId());
        assertEquals(JobResultFlyweight.OUTCOME_VALUE, read.outcome());
        assertArrayEquals("result".getBytes(StandardCharsets.UTF_8), copy(buffer, read.resultOffset(), read.resultLength()));

        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(43).exception("java.lang.IllegalStateException", "boom", "at a.b(C.java:1)");
        assertEquals(JobResultFlyweight.TYPE, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(JobResultFlyweight.OUTCOME_EXCEPTION, read.outcome());
        assertEquals("java.lang.IllegalStateException", read.exceptionClassName());
        assertEquals("boom", read.exceptionMessage());
        assertEquals("at a.b(C.java:1)", read.exceptionStackTrace());

        header(new JobResultFlyweight(), JobResultFlyweight.TYPE).ownerJobId(44).aborted();
        assertEquals(JobResultFlyweight.TYPE, validateCurrent());
        read.wrap(buffer, 0, buffer.capacity());
        assertEquals(44, read.ownerJobId());
        assertEquals(JobResultFlyweight.OUTCOME_ABORTED, read.outcome());
    }

    @Test
    void shouldRoundTripAbortTerminateAndChunk() {
        header(new AbortFlyweight(), AbortFlyweight.TYPE).count(3).jobId(0, 10).jobId(1, 11).jobId(2, 12);
        assertEquals(AbortFlyweight.TYPE, validateCurrent());
        final AbortFlyweight abort = new AbortFlyweight();
        abort.wrap(buffer, 0, buffer.capacity());
        assertEquals(3, abort.count());
        assertEquals(12, abort.jobId(2));

        header(new TerminateFlyweight(), TerminateFlyweight.TYPE).exitCode(-2);
        assertEquals(TerminateFlyweight.TYPE, validateCurrent());
        final TerminateFlyweight terminate = new TerminateFlyweight();
        terminate.wrap(buffer, 0, buffer.capacity());
        assertEquals(-2, terminate.exitCode());

        header(new ChunkFlyweight(), ChunkFlyweight.TYPE).messageId(9).chunkIndex(1).chunkCount(3).totalLength(300)
            .frameLength(ChunkFlyweight.PAYLOAD_OFFSET + 100);
        assertEquals(ChunkFlyweight.TYPE, validateCurrent());
        final ChunkFlyweight chunk = new ChunkFlyweight();
        chunk.wrap(buffer, 0, buffer.capacity());
        assertEquals(9, chunk.messageId());
        assertEquals(1, chunk.chunkIndex());
        assertEquals(3, chunk.chunkCount());
        assertEquals(300, chunk.totalLength());
        assertEquals(0, counters.totalDropped());
    }

    @Test
    void shouldRoundTripTheRecoveryMessages() {
        final OrphanTuplesFlyweight tuples = header(new OrphanTuplesFlyweight(), OrphanTuplesFlyweight.TYPE).start(false, 2);
        int at = tuples.putPair(OrphanTuplesFlyweight.PAIRS_OFFSET, 5, -77L, bytes("\u0001\u0002"), 0, 2);
        tuples.frameLength(tuples.putPair(at, 6, 78L, bytes(""), 0, 0));
        assertEquals(OrphanTuplesFlyweight.TYPE, validateCurrent());
        final OrphanTuplesFlyweight read = new OrphanTuplesFlyweight();
        read.wrap(buffer, 0, buffer.capacity());
        assertHeader(read, OrphanTuplesFlyweight.TYPE);
        assertFalse(read.isTable());
        assertEquals(2, read.count());
        at = OrphanTuplesFlyweight.PAIRS_OFFSET;
        assertEquals(5, read.holderAt(at));
        assertEquals(-77L, read.fingerprintAt(at));
        assertEquals(2, read.stampLengthAt(at));
        assertEquals(2, buffer.getByte(read.stampOffsetAt(at) + 1));
        at = read.nextPair(at);
        assertEquals(6, read.holderAt(at));
        assertEquals(78L, read.fingerprintAt(at));
        assertEquals(0, read.stampLengthAt(at));

        header(new ResultRequestFlyweight(), ResultRequestFlyweight.TYPE).request(1234, bytes("\u0009"), 0, 1);
        assertEquals(ResultRequestFlyweight.TYPE, validateCurrent());
        final ResultRequestFlyweight request = new ResultRequestFlyweight();
        request.wrap(buffer, 0, buffer.capacity());
        assertEquals(1234, request.requesterJobId());
        assertEquals(1, request.stampLength());
        assertEquals(9, buffer.getByte(request.stampOffset()));

        header(new StealReplyFlyweight(), StealReplyFlyweight.TYPE).requestId(1).ownerJobId(2)
            .job("a.B#c", bytes("0"), 0, 1, bytes(""), 0, 0).restarted(true);
        assertEquals(StealReplyFlyweight.TYPE, validateCurrent());
        final StealReplyFlyweight reply = new StealReplyFlyweight();
        reply.wrap(buffer, 0, buffer.capacity());
        assertTrue(reply.restarted());
        buffer.putByte(StealReplyFlyweight.RESTARTED_OFFSET, (byte)2); // neither 0 nor 1: malformed
        assertEquals(FrameValidator.INVALID, validateCurrent());

        header(new StealRequestFlyweight(), StealRequestFlyweight.TYPE).requestId(3).wideArea(true).wantsOrphanTable(true);
        final StealRequestFlyweight stealRequest = new StealRequestFlyweight();
        stealRequest.wrap(buffer, 0, buffer.capacity());
        assertTrue(stealRequest.wideArea() && stealRequest.wantsOrphanTable());

        // a pair count the frame cannot hold, and a stamp length past the frame's end: malformed
        header(new OrphanTuplesFlyweight(), OrphanTuplesFlyweight.TYPE).start(false, 1000)
            .frameLength(OrphanTuplesFlyweight.PAIRS_OFFSET + 8);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        final OrphanTuplesFlyweight longStamp = header(new OrphanTuplesFlyweight(), OrphanTuplesFlyweight.TYPE).start(false, 1);
        longStamp.frameLength(longStamp.putPair(OrphanTuplesFlyweight.PAIRS_OFFSET, 1, 0L, bytes("ab"), 0, 2));
        buffer.putInt(OrphanTuplesFlyweight.PAIRS_OFFSET + 12, 3, HeaderFlyweight.BYTE_ORDER);
        assertEquals(FrameValidator.INVALID, validateCurrent());
    }

    @Test
    void shouldRoundTripTheMastershipMessages() {
        header(new RootFlyweight(), RootFlyweight.TYPE).root(5L << 32 | 9, 3, 2, "a.B#c", bytes("xyz"), 0, 3);
        assertEquals(RootFlyweight.TYPE, validateCurrent());
        final RootFlyweight root = new RootFlyweight();
        root.wrap(buffer, 0, buffer.capacity());
        assertEquals(5L << 32 | 9, root.runId());
        assertEquals(3, root.masterId());
        assertEquals(2, root.takeovers());
        assertEquals("a.B#c", root.jobTypeName());
        assertEquals(3, root.argumentsLength());
        assertEquals('z', buffer.getByte(root.argumentsOffset() + 2));

        header(new RunResultFlyweight(), RunResultFlyweight.TYPE).result(5L << 32 | 9, 4, 1,
            RunResultFlyweight.OUTCOME_FAILED, "stats", "x.Y\nm", bytes("r"), 0, 1);
        assertEquals(RunResultFlyweight.TYPE, validateCurrent());
        final RunResultFlyweight result = new RunResultFlyweight();
        result.wrap(buffer, 0, buffer.capacity());
        assertEquals(5L << 32 | 9, result.runId());
        assertEquals(4, result.masterId());
        assertEquals(1, result.takeovers());
        assertEquals(RunResultFlyweight.OUTCOME_FAILED, result.outcome());
        assertEquals("stats", result.statistics());
        assertEquals("x.Y\nm", result.text());
        assertEquals(1, result.resultLength());
        assertEquals('r', buffer.getByte(result.resultOffset()));

        // the arguments' length past the frame's end: malformed
        final RootFlyweight longArguments = header(new RootFlyweight(), RootFlyweight.TYPE);
        longArguments.root(1, 1, 0, "a", bytes("ab"), 0, 2);
        buffer.putInt(longArguments.argumentsOffset() - HeaderFlyweight.VAR_LENGTH_PREFIX, 3, HeaderFlyweight.BYTE_ORDER);
        assertEquals(FrameValidator.INVALID, validateCurrent());
    }

    @Test
    void shouldCountAndDropEveryTruncationOfEveryValidFrame() {
        long expectedDrops = 0;
        for (final byte[] frame : allValidFrames()) {
            final UnsafeBuffer whole = new UnsafeBuffer(frame);
            assertTrue(validate(whole, 0, frame.length) != FrameValidator.INVALID, "type " + frame[1]);
            for (int length = 0; length < frame.length; length++) {
                final byte[] cut = new byte[length];
                System.arraycopy(frame, 0, cut, 0, length);
                assertEquals(FrameValidator.INVALID, validate(new UnsafeBuffer(cut), 0, length));
                expectedDrops++;
            }
        }
        assertEquals(expectedDrops, counters.totalDropped());
    }

    @Test
    void shouldCountBadVersionUnknownTypeAndBadLength() {
        header(new HeaderFlyweight(), MembershipMessages.HEARTBEAT).version(HeaderFlyweight.CURRENT_VERSION + 1);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.badVersion.get());

        header(new HeaderFlyweight(), 200);
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.unknownType.get());

        header(new HeaderFlyweight(), MembershipMessages.HEARTBEAT);
        assertEquals(FrameValidator.INVALID, validate(buffer, 0, HeaderFlyweight.HEADER_LENGTH + 4));
        assertEquals(1, counters.badLength.get());

        header(new AbortFlyweight(), AbortFlyweight.TYPE).count(1).count(Integer.MAX_VALUE)
            .frameLength(AbortFlyweight.frameLengthFor(1));
        assertEquals(FrameValidator.INVALID, validateCurrent());
        assertEquals(1, counters.malformed.get());
    }

    @Test
    void shouldNeverThrowOnRandomBytes() {
        final Random random = new Random(42);
        final List<byte[]> valid = allValidFrames();
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            final byte[] frame;
            if (i % 2 == 0) {
                frame = new byte[random.nextInt(80)];
                random.nextBytes(frame);
                if (frame.length > 1 && random.nextBoolean()) {
                    frame[0] = HeaderFlyweight.CURRENT_VERSION;
                }
            } else {
                // A valid frame with a few random bytes flipped: reaches the per-type checks.
                frame = valid.get(random.nextInt(valid.size())).clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    frame[random.nextInt(frame.length)] = (byte)random.nextInt();
                }
            }
            final UnsafeBuffer b = new UnsafeBuffer(frame);
            final int type = validate(b, 0, frame.length);
            if (type != FrameValidator.INVALID) {
                accepted++;
                readEverything(b, type, frame.length);
            }
        }
        assertEquals(200_000, accepted + counters.totalDropped());
    }

    /** A frame the validator accepted must be fully readable without an exception. */
    private static void readEverything(final UnsafeBuffer b, final int type, final int length) {
        switch (type) {
            case JoinFlyweight.TYPE -> {
                final JoinFlyweight f = new JoinFlyweight();
                f.wrap(b, 0, length);
                f.site();
                f.endpoint();
            }
            case MemberListFlyweight.TYPE -> {
                final MemberListFlyweight f = new MemberListFlyweight();
                f.wrap(b, 0, length);
                f.forEachMember((id, state, site, endpoint) -> { });
            }
            case StealReplyFlyweight.TYPE -> {
                final StealReplyFlyweight f = new StealReplyFlyweight();
                f.wrap(b, 0, length);
                if (f.hasJob()) {
                    f.jobTypeName();
                    copy(b, f.stampOffset(), f.stampLength());
                    copy(b, f.argumentsOffset(), f.argumentsLength());
                }
            }
            case JobResultFlyweight.TYPE -> {
                final JobResultFlyweight f = new JobResultFlyweight();
                f.wrap(b, 0, length);
                if (f.outcome() == JobResultFlyweight.OUTCOME_VALUE) {
                    copy(b, f.resultOffset(), f.resultLength());
                } else if (f.outcome() == JobResultFlyweight.OUTCOME_EXCEPTION) {
                    f.exceptionClassName();
                    f.exceptionMessage();
                    f.exceptionStackTrace();
                }
            }
            case OrphanTuplesFlyweight.TYPE -> {
                final OrphanTuplesFlyweight f = new OrphanTuplesFlyweight();
                f.wrap(b, 0, length);
                int at = OrphanTuplesFlyweight.PAIRS_OFFSET;
                for (int i = 0; i < f.count(); i++) {
                    f.holderAt(at);
                    copy(b, f.stampOffsetAt(at), f.stampLengthAt(at));
                    at = f.nextPair(at);
                }
                assertEquals(length, at);
            }
            case ResultRequestFlyweight.TYPE -> {
                final ResultRequestFlyweight f = new ResultRequestFlyweight();
                f.wrap(b, 0, length);
                f.requesterJobId();
                copy(b, f.stampOffset(), f.stampLength());
            }
            case AbortFlyweight.TYPE, AbortFlyweight.ORPHAN_PROPAGATION_TYPE -> {
                final AbortFlyweight f = new AbortFlyweight();
                f.wrap(b, 0, length);
                for (int i = 0; i < f.count(); i++) {
                    f.jobId(i);
                }
            }
            default -> {
            }
        }
    }
}
